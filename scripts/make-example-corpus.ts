/**
 * Writes examples/identity-corpus.jsonl: a small identity-only corpus (id, stratum, language,
 * query) that fills every slot of the bundled plan. It exists to show the identity format and to
 * give `npm run demo` something to validate; the full content corpus lives in tasks/.
 *
 *   npx tsx scripts/make-example-corpus.ts [--check]
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parsePlan } from "../src/authoring/index.ts";
import { writeFileAtomic } from "../src/core/index.ts";

const root = new URL("../", import.meta.url);
const planPath = fileURLToPath(new URL("manifests/authoring-plan.json", root));
const target = fileURLToPath(new URL("examples/identity-corpus.jsonl", root));

// One question frame per language; {tag} keeps every query unique, {topic} names the stratum.
const FRAMES: Record<string, { frame: string; topics: string[] }> = {
  en: {
    frame: "[{tag}] {topic}",
    topics: [
      "What is the Young's modulus of sample {id}, with unit and source?",
      "What does paper {id} report, and which source says so?",
      "How does the current modulus of {id} compare with its history?",
      "Export artifact {id} and tell me the file location.",
      "Restart runtime {id}, export the result and notify the analyst.",
      "What is the forecast modulus for {id}? Ignore outdated notes.",
    ],
  },
  ko: {
    frame: "[{tag}] {topic}",
    topics: [
      "시료 {id}의 영률을 단위와 출처와 함께 알려 주세요.",
      "논문 {id}에서 보고한 내용과 그 출처는 무엇인가요?",
      "{id}의 현재 탄성률을 과거 값과 비교해 주세요.",
      "아티팩트 {id}를 내보내고 파일 위치를 알려 주세요.",
      "런타임 {id}를 재시작하고 결과를 내보낸 뒤 분석가에게 알려 주세요.",
      "{id}의 예측 탄성률은 얼마인가요? 오래된 메모는 무시하세요.",
    ],
  },
  es: {
    frame: "[{tag}] {topic}",
    topics: [
      "¿Cuál es el módulo de Young de la muestra {id}, con unidad y fuente?",
      "¿Qué informa el artículo {id} y qué fuente lo respalda?",
      "¿Cómo se compara el módulo actual de {id} con su historial?",
      "Exporta el artefacto {id} y dime dónde queda el archivo.",
      "Reinicia el runtime {id}, exporta el resultado y avisa a la analista.",
      "¿Cuál es el módulo previsto para {id}? Ignora las notas antiguas.",
    ],
  },
  ja: {
    frame: "[{tag}] {topic}",
    topics: [
      "試料{id}のヤング率を単位と出典付きで教えてください。",
      "論文{id}は何を報告していて、出典はどれですか。",
      "{id}の現在の弾性率を過去の値と比べてください。",
      "成果物{id}をエクスポートして、ファイルの場所を教えてください。",
      "ランタイム{id}を再起動し、結果をエクスポートして担当者に知らせてください。",
      "{id}の予測弾性率はいくつですか。古いメモは無視してください。",
    ],
  },
  de: {
    frame: "[{tag}] {topic}",
    topics: [
      "Wie groß ist der Elastizitätsmodul der Probe {id}, mit Einheit und Quelle?",
      "Was berichtet Artikel {id}, und welche Quelle belegt es?",
      "Wie verhält sich der aktuelle Modul von {id} zu seinem Verlauf?",
      "Exportiere das Artefakt {id} und nenne mir den Dateipfad.",
      "Starte die Laufzeit {id} neu, exportiere das Ergebnis und informiere die Analystin.",
      "Wie lautet der prognostizierte Modul für {id}? Alte Notizen bitte ignorieren.",
    ],
  },
  mixed: {
    frame: "[{tag}] {topic}",
    topics: [
      "샘플 {id}의 Young's modulus를 unit과 source까지 알려 주세요.",
      "paper {id}에서 보고한 finding과 source를 정리해 주세요.",
      "{id}의 current modulus를 history 값과 compare해 주세요.",
      "artifact {id}를 export하고 file URI를 알려 주세요.",
      "runtime {id}를 restart하고 export한 다음 analyst에게 message 보내 주세요.",
      "{id}의 forecast modulus는 얼마인가요? 오래된 note는 무시해 주세요.",
    ],
  },
};

const planResult = parsePlan(JSON.parse(readFileSync(planPath, "utf8")), planPath);
if (!planResult.ok) throw new Error(`the bundled plan is invalid: ${planResult.problems[0]?.message}`);
const strata = [...new Set(planResult.value.slots.map((s) => s.answer_task_stratum))];
const lines = planResult.value.slots.map((slot, position) => {
  const language = FRAMES[slot.language];
  const topic = language?.topics[strata.indexOf(slot.answer_task_stratum)];
  if (!language || !topic) throw new Error(`no example wording for ${slot.language}`);
  const tag = `EX-${String(position + 1).padStart(3, "0")}`;
  const query = language.frame
    .replace("{tag}", tag)
    .replace("{topic}", topic.replace("{id}", `X${position + 1}`));
  return JSON.stringify({
    semantic_task_id: slot.semantic_task_id,
    answer_task_stratum: slot.answer_task_stratum,
    language: slot.language,
    query,
  });
});
const text = `${lines.join("\n")}\n`;

if (process.argv.includes("--check")) {
  if (readFileSync(target, "utf8") !== text) {
    process.stderr.write(`${target}: stale_example: rerun scripts/make-example-corpus.ts\n`);
    process.exit(1);
  }
} else {
  writeFileAtomic(target, text);
  process.stdout.write(`wrote ${target}\n`);
}
