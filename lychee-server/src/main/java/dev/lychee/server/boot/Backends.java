package dev.lychee.server.boot;

import com.google.inject.Module;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.fallback.FallbackConfig;
import dev.lychee.core.metrics.MicrometerModule;
import dev.lychee.core.store.PrivateFiles;
import dev.lychee.embed.onnx.OnnxEmbeddingModule;
import dev.lychee.llm.ollama.OllamaConfig;
import dev.lychee.llm.ollama.OllamaModule;
import dev.lychee.llm.openai.OpenAiConfig;
import dev.lychee.llm.openai.OpenAiModule;
import dev.lychee.store.postgres.PostgresStoreConfig;
import dev.lychee.store.postgres.PostgresStoreModule;
import dev.lychee.store.sqlite.SqliteStoreModule;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The memory a started server runs on: a SQLite file (or, with {@code LYCHEE_STORE=postgres}, the
 * PostgreSQL database of {@code LYCHEE_PG_URL}, schema {@code LYCHEE_PG_SCHEMA}), the embedder named by {@code
 * LYCHEE_EMBEDDER} ({@code onnx}, the default, or {@code openai:<model>} / {@code
 * ollama:<model>}) and the chat model named by {@code LYCHEE_LLM} ({@code openai:<model>} or
 * {@code ollama:<model>}; unset means the offline components), configured as for the CLI
 * ({@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL}, {@code OLLAMA_HOST}), and the read deadline
 * {@code LYCHEE_DEADLINE} (seconds).
 *
 * @param db the SQLite file
 * @param env the environment to read
 */
record Backends(Path db, Map<String, String> env) {

  /**
   * The CLI's rule for where memory lives: {@code --db}, else {@code $LYCHEE_DB}, else {@code
   * lychee.db} in {@code $LYCHEE_HOME} (default {@code $HOME/.lychee}).
   */
  static Backends of(Path db, Map<String, String> env) {
    if (db == null && nonBlank(env.get("LYCHEE_DB"))) {
      db = Path.of(env.get("LYCHEE_DB").trim());
    }
    if (db == null) {
      db = home(env).resolve("lychee.db");
    }
    return new Backends(db.toAbsolutePath().normalize(), env);
  }

  /** {@code $LYCHEE_HOME}, else {@code $HOME/.lychee} ({@code user.home} only when HOME is unset). */
  static Path home(Map<String, String> env) {
    if (nonBlank(env.get("LYCHEE_HOME"))) {
      return Path.of(env.get("LYCHEE_HOME").trim());
    }
    return Path.of(nonBlank(env.get("HOME")) ? env.get("HOME") : System.getProperty("user.home"), ".lychee");
  }

  /**
   * Checks the environment, creates the database file private to the user if it is missing
   * (directories 0700, file 0600: memory holds personal data) and opens the memory.
   *
   * @param describe receives one line saying what runs (never a key), then a line starting with
   *     {@code warning: } when OpenAI's own endpoint has no key
   * @throws IllegalArgumentException for a bad setting in the environment (nothing was created)
   * @throws IllegalStateException when the database cannot be created or is not one
   */
  Lychee open(Consumer<String> describe) {
    return open(describe, null, LycheeConfig.defaults());
  }

  /**
   * {@link #open(Consumer)} with {@code config}, publishing the memory's meters to {@code metrics}
   * when it is not null.
   */
  Lychee open(Consumer<String> describe, MeterRegistry metrics, LycheeConfig config) {
    String llm = env.getOrDefault("LYCHEE_LLM", "").trim();
    String embedder = env.getOrDefault("LYCHEE_EMBEDDER", "onnx").trim();
    if (!llm.isEmpty() && !llm.startsWith("openai:") && !llm.startsWith("ollama:")) {
      throw new IllegalArgumentException("LYCHEE_LLM='" + llm + "': expected openai:<model> or ollama:<model>");
    }
    boolean onnx = embedder.isEmpty() || embedder.toLowerCase(Locale.ROOT).equals("onnx");
    if (!onnx && !embedder.startsWith("openai:") && !embedder.startsWith("ollama:")) {
      throw new IllegalArgumentException("LYCHEE_EMBEDDER='" + embedder + "': expected onnx, openai:<model> or ollama:<model>");
    }
    Optional<OpenAiConfig> openai = OpenAiConfig.fromEnvironment(env);
    Optional<OllamaConfig> ollama = OllamaConfig.fromEnvironment(env);
    Optional<Duration> deadline = FallbackConfig.deadlineFromEnvironment(env);
    if (deadline.isPresent()) {
      config = config.toBuilder().fallback(config.fallback().withDeadline(deadline.get())).build();
    }
    List<Module> modules = new ArrayList<>();
    String where = addStore(modules);
    if (onnx) {
      modules.add(new OnnxEmbeddingModule());
    }
    openai.ifPresent(c -> modules.add(new OpenAiModule(c)));
    ollama.ifPresent(c -> modules.add(new OllamaModule(c)));
    if (metrics != null) {
      modules.add(new MicrometerModule(metrics));
    }
    describe.accept(where + "; embedder " + (onnx ? "onnx bge-small-en-v1.5-q" : embedder) + "; "
        + (llm.isEmpty() ? "offline components (heuristic encoder, rule-based planner, extractive answerer)"
            : "LLM " + llm + " for encoder, planner and answerer"));
    // the CLI's check, from the one place that knows when OpenAI will refuse every call: said before the first one
    openai.flatMap(c -> c.missingKeyWarning("`lychee encode --pending NAMESPACE` (or POST /v1/namespaces/{ns}/encode-pending)"))
        .ifPresent(w -> describe.accept("warning: " + w));
    return Lychee.create(config, modules.toArray(Module[]::new));
  }

  /** Where the memory lives, for messages: the SQLite file, or the PostgreSQL server (never credentials). */
  String location() {
    String url = env.get("LYCHEE_PG_URL");
    boolean postgres = "postgres".equals(env.getOrDefault("LYCHEE_STORE", "").trim().toLowerCase(Locale.ROOT));
    return postgres && nonBlank(url) ? new PostgresStoreModule(url.trim()).target() : db.toString();
  }

  /** The store of {@code LYCHEE_STORE} (sqlite, the default, or postgres); returns what it is, for the log. */
  private String addStore(List<Module> modules) {
    String store = env.getOrDefault("LYCHEE_STORE", "sqlite").trim().toLowerCase(Locale.ROOT);
    if (store.equals("postgres")) {
      String url = env.get("LYCHEE_PG_URL");
      if (!nonBlank(url)) {
        throw new IllegalArgumentException("--store postgres needs --pg-url or LYCHEE_PG_URL (jdbc:postgresql://host:port/db?user=..&password=..)");
      }
      PostgresStoreConfig settings = PostgresStoreConfig.builder().schema(env.getOrDefault("LYCHEE_PG_SCHEMA", "lychee").trim()).build();
      PostgresStoreModule module = new PostgresStoreModule(url.trim(), settings);
      modules.add(module);
      return "PostgreSQL store " + module.target() + " (schema " + settings.schema() + ")";
    }
    if (!store.equals("sqlite")) {
      throw new IllegalArgumentException("--store / LYCHEE_STORE='" + store + "': expected sqlite or postgres");
    }
    createPrivately();
    modules.add(new SqliteStoreModule(db));
    return "SQLite store " + db;
  }

  private void createPrivately() {
    if (Files.isDirectory(db)) {
      throw new IllegalStateException(db + " is a directory, not a SQLite database file");
    }
    try {
      PrivateFiles.createFile(db);
      // the store keeps its HNSW graphs beside the file
      PrivateFiles.createDirectories(db.resolveSibling(db.getFileName() + ".hnsw"));
    } catch (IOException e) {
      throw new IllegalStateException("cannot create " + db + ": " + e.getMessage(), e);
    }
  }

  private static boolean nonBlank(String s) {
    return s != null && !s.isBlank();
  }
}
