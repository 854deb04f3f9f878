package dev.lychee.bench.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options of an LLM-judged run, shared by {@code eval locomo} and {@code eval longmemeval}:
 * given {@code --llm}, those commands answer with the model and grade with a judge instead of
 * measuring evidence recall.
 */
final class QaOptions {
  @Option(names = "--llm", description = "Answer with this model: openai:<model> or ollama:<model> (endpoint and key "
      + "from OPENAI_BASE_URL / OPENAI_API_KEY / OLLAMA_HOST), or 'offline' for Lychee's offline components (then only "
      + "token F1, exact match, BLEU-1 and abstention are reported unless --judge is given). Switches the command to "
      + "question answering.")
  String llm;

  @Option(names = "--judge", description = "Grade answers with this model (default: the --llm model; none with --llm offline).")
  String judge;

  @Option(names = "--variants", defaultValue = "lychee",
      description = "Comma-separated variants, reported as one ablation table: lychee, fixed, per-turn, summary, "
          + "no-reference, record-only, no-planner, no-fusion, no-raw (default: ${DEFAULT-VALUE}).")
  String variants;

  @Option(names = "--qa-k", defaultValue = "20", description = "Evidence items per question (default: ${DEFAULT-VALUE}).")
  int k;

  @Option(names = "--dry-run", description = "Print the calls and input tokens the run would send, and send nothing.")
  boolean dryRun;

  @Option(names = "--cache", description = "Keep every model response in this directory, and answer from it first, "
      + "so a re-run or a resumed run sends nothing twice; also keeps per-conversation checkpoints under it.")
  Path cache;

  @Option(names = "--checkpoints", description = "Directory of per-conversation checkpoints (default: <cache>/checkpoints "
      + "when --cache is given, else none): finished conversations are loaded instead of run again.")
  Path checkpoints;

  @Option(names = "--concurrency", defaultValue = "1",
      description = "Conversations run at once (default: ${DEFAULT-VALUE}); the providers retry 429s with Retry-After.")
  int concurrency;

  @Option(names = "--questions", description = "Ask at most N questions per conversation.")
  Integer questions;

  boolean enabled() {
    return llm != null;
  }

  boolean offline() {
    return "offline".equalsIgnoreCase(llm == null ? "" : llm.strip());
  }
}
