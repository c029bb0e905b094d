// Until every command imports these from src/world/.
export {
  checkContext,
  loadBenchmark as load,
  loadCheckedCorpus,
  runCheck,
  type Benchmark as LoadedBenchmark,
  type BenchmarkPaths as BenchmarkInputs,
  type CheckedCorpus,
} from "../world/index.ts";
