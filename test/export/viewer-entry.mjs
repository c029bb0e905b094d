// The page the viewer test opens: Inspect's own log viewer (the npm build of its React app)
// reading one log over plain HTTP. Bundled at test time by rolldown; `LOG_FILE` is replaced then.
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { App, clientApi, initializeStore, simpleHttpApi } from "@metrevals/inspect-log-viewer";

const api = clientApi(simpleHttpApi(undefined, LOG_FILE), LOG_FILE);
initializeStore(api, {
  downloadFiles: false,
  downloadLogs: false,
  webWorkers: true,
  streamSamples: false,
  streamSampleData: false,
});
createRoot(document.getElementById("app")).render(createElement(App, { api }));
