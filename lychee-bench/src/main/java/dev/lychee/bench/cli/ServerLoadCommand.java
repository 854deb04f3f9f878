package dev.lychee.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.inject.Module;
import dev.lychee.bench.harness.AtomicFiles;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.load.LoadRow;
import dev.lychee.bench.load.LoadWorkload;
import dev.lychee.bench.load.ServerLoadRun;
import dev.lychee.bench.locomo.LocomoLoader;
import dev.lychee.bench.systems.ScratchDirectory;
import dev.lychee.core.Lychee;
import dev.lychee.store.sqlite.SqliteStoreModule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code lychee eval server}: requests/s and p50/p95 of ingest and recall through the HTTP server, beside in-process recall. */
@Command(name = "server", mixinStandardHelpOptions = true,
    description = {"Load run of lychee-server on loopback: single-turn ingest and recall requests from 1..n concurrent clients,",
        "beside recall called in-process on the same memory with the same concurrency (same run)."})
final class ServerLoadCommand implements Callable<Integer> {
  @ParentCommand EvalCommand parent;

  @Option(names = "--data", converter = DataFileConverter.class, description = "LoCoMo JSON file; its first conversation is stored and its questions asked. Default: a seeded synthetic dialogue.")
  Path data;

  @Option(names = "--clients", defaultValue = "1,4,8", description = "Client counts (default: ${DEFAULT-VALUE}).")
  String clients;

  @Option(names = "--requests", defaultValue = "60", description = "Requests per client per mode (default: ${DEFAULT-VALUE}).")
  int requests;

  @Option(names = "--warmup", defaultValue = "30", description = "Untimed recalls (in-process and HTTP) first (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--store", defaultValue = "sqlite", description = "memory or sqlite (a temporary file; default: ${DEFAULT-VALUE}).")
  String store;

  @Option(names = "--json", description = "Write the result JSON here.")
  Path json;

  @Override
  public Integer call() throws Exception {
    List<Integer> counts = Csv.positiveInts(clients, "--clients");
    if (requests < 1 || warmup < 0) {
      throw new IllegalArgumentException("--requests must be >= 1 and --warmup >= 0");
    }
    LoadWorkload workload = data == null ? LoadWorkload.synthetic(20, 20, 14)
        : LoadWorkload.of(LocomoLoader.load(data).get(0));
    List<Module> modules = new ArrayList<>();
    ScratchDirectory dir = null;
    switch (store.trim().toLowerCase(Locale.ROOT)) {
      case "memory" -> { }
      case "sqlite" -> {
        dir = ScratchDirectory.create("lychee-load");
        modules.add(new SqliteStoreModule(dir.path().resolve("lychee.db")));
      }
      default -> throw new IllegalArgumentException("unknown --store '" + store + "' (expected memory or sqlite)");
    }
    Lychee.Builder b = Lychee.builder().embedder(parent.uncachedEmbedderFactory().get());
    modules.forEach(b::module);
    List<LoadRow> rows;
    try (Lychee memory = b.build()) {
      rows = new ServerLoadRun(memory, workload, requests, warmup, Progress.forCurrentProcess(System.err)).run(counts);
    } finally {
      if (dir != null) {
        dir.close();
      }
    }
    System.out.print(table(rows, store));
    if (json != null) {
      AtomicFiles.write(json, json(rows));
      System.out.println("JSON written to " + json);
    }
    return rows.stream().allMatch(r -> r.failures() == 0) ? 0 : 1;
  }

  static String table(List<LoadRow> rows, String store) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%nserver load (%s store, loopback)%n", store));
    sb.append(String.format(Locale.ROOT, "%-18s %7s %9s %9s %9s %9s %8s%n", "mode", "clients", "requests", "req/s", "p50", "p95", "failed"));
    for (LoadRow r : rows) {
      sb.append(String.format(Locale.ROOT, "%-18s %7d %9d %9.1f %7.1fms %7.1fms %8d%n", r.mode(), r.clients(), r.requests(),
          r.requestsPerS(), r.p50Ms(), r.p95Ms(), r.failures()));
    }
    return sb.toString();
  }

  /** {@code {"rows":[{"mode":..,"clients":..,"requests":..,"requests_per_s":..,"latency_ms":{"p50":..,"p95":..},"failures":..}]}}. */
  static String json(List<LoadRow> rows) throws Exception {
    ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = m.createObjectNode();
    ArrayNode arr = root.putArray("rows");
    for (LoadRow r : rows) {
      ObjectNode n = arr.addObject();
      n.put("mode", r.mode());
      n.put("clients", r.clients());
      n.put("requests", r.requests());
      n.put("requests_per_s", Math.round(r.requestsPerS() * 10) / 10.0);
      ObjectNode l = n.putObject("latency_ms");
      l.put("p50", Math.round(r.p50Ms() * 100) / 100.0);
      l.put("p95", Math.round(r.p95Ms() * 100) / 100.0);
      n.put("failures", r.failures());
    }
    return m.writeValueAsString(root) + "\n";
  }
}
