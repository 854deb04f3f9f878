package dev.lychee.cli;

import dev.lychee.api.Answer;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.core.Lychee;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Ingests the built-in conversation and answers its questions, offline by default. */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {"Run the offline demo on a built-in conversation.", "",
        "Ingests a two-person, four-session conversation (70 turns) into a fresh in-memory namespace, asks it eleven questions, and prints for each the top evidence with session date, speaker and score, the answer, and the time taken."})
final class DemoCommand implements Callable<Integer> {

  @Mixin MemoryOptions memory = new MemoryOptions().withStore("memory");

  @Option(names = "--top", description = "Evidence items printed per question. Default: ${DEFAULT-VALUE}.")
  int top = 3;

  @Option(names = {"-k", "--k"}, description = "Evidence depth of each recall. Default: ${DEFAULT-VALUE}.")
  int k = 10;

  @Option(names = "--web", description = "After ingesting, serve the web inspector on 127.0.0.1 and print its URL "
      + "(no API key: loopback only); Ctrl-C stops it.")
  boolean web;

  @Option(names = "--port", description = "Port of the inspector with --web, 0..65535 (0 picks a free one). Default: ${DEFAULT-VALUE}.")
  int port = 8080;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    // before the ingest: a bad value would otherwise fail only at the first question or at --web
    if (top < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--top must be >= 1: " + top);
    }
    if (k < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "-k must be >= 1: " + k);
    }
    if (port < 0 || port > 65535) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--port must be between 0 and 65535: " + port);
    }
    PrintStream out = System.out;
    ConversationFile conversation = ConversationFile.demo();
    String ns = "lychee-demo";
    long t0 = System.nanoTime();
    try (Lychee lychee = memory.open(out, MemoryOptions.Access.CREATE)) {
      out.printf(Locale.ROOT, "lychee: ready in %.1f s (embedder %s)%n", secs(t0), lychee.embedder().modelId());
      lychee.forget(ns);
      long t1 = System.nanoTime();
      IngestResult ingest = IngestResult.EMPTY;
      for (ConversationFile.Session s : conversation.sessions()) {
        ingest = ingest.plus(lychee.append(ns, s.id(), s.date(), s.turns()));
        ingest = ingest.plus(lychee.flush(ns, s.id()));
      }
      lychee.awaitIdle(ns, java.time.Duration.ofMinutes(10));
      out.printf(Locale.ROOT, "%nIngested %d turns in %d sessions in %.2f s: %d segments, %d records, %d evidence nodes%s%n",
          ingest.turnsStored(), conversation.sessions().size(), secs(t1), ingest.segmentsEncoded(),
          ingest.recordsWritten(), ingest.nodesWritten(),
          ingest.errors().isEmpty() ? "" : " (" + ingest.errors().size() + " segments failed to encode)");
      if (web) {
        return DemoWeb.serve(lychee, ns, port, out);
      }
      EvidencePrinter printer = new EvidencePrinter(lychee.store(), out);
      for (String q : conversation.questions()) {
        long tq = System.nanoTime();
        Recall recall = lychee.recall(new Question(ns, q, k, null));
        double recallMs = (System.nanoTime() - tq) / 1e6;
        Answer answer = lychee.answer(new Question(ns, q, k, null));
        out.printf(Locale.ROOT, "%nQ: %s%n   plan: %s, %d route(s); recall %.1f ms%n", q,
            recall.plan().type().wireName(), recall.plan().routes().size(), recallMs);
        printer.print(ns, recall.evidence(), top);
        out.println("   A: " + answer.text().replace('\n', ' '));
      }
      out.printf(Locale.ROOT, "%nDone in %.1f s.%n", secs(t0));
    }
    return 0;
  }

  private static double secs(long start) {
    return (System.nanoTime() - start) / 1e9;
  }
}
