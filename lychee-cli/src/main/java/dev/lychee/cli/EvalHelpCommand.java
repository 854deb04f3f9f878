package dev.lychee.cli;

import picocli.CommandLine.Command;

/**
 * Documents {@code ./lychee eval}. The harness lives in {@code lychee-bench}, which the launcher
 * runs for this word; invoking this class directly only prints where to find it.
 */
@Command(
    name = "eval",
    mixinStandardHelpOptions = true,
    description = {
        "Evaluation harness: LoCoMo, LongMemEval, segments, speed, server load, answers (module lychee-bench).",
        "",
        "The ./lychee launcher runs it:",
        "  eval locomo --data FILE [--systems lychee,bm25,dense,hybrid] [--k 5,10,20] [--json OUT] [--report DIR]",
        "  eval segments --data FILE --segmenter semantic|fixed|turn [--json OUT]",
        "  eval speed --data FILE [--scale 1,5,20] [--store memory|sqlite|lucene|postgres[,...]] [--writers N] [--json OUT]",
        "  eval longmemeval --data longmemeval_s.json [--limit N]",
        "  eval calibrate --data FILE",
        "  eval server [--data FILE] [--clients 1,4,8] [--store memory|sqlite] [--json OUT]",
        "  eval answers --evidence FILE [--data FILE] [--dump OUT]",
        "  eval replay --data FILE --variants FILE [--k 5,10,20] [--budgets 500,1000,2000]",
        "Run './lychee eval --help' for the options."})
final class EvalHelpCommand implements Runnable {
  @Override
  public void run() {
    System.out.println("The evaluation harness runs from the launcher: ./lychee eval --help");
  }
}
