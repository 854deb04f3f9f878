package dev.lychee.cli;

import com.google.inject.Module;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.fallback.FallbackConfig;
import dev.lychee.store.lucene.LuceneStoreModule;
import dev.lychee.store.postgres.PostgresStoreConfig;
import dev.lychee.store.postgres.PostgresStoreModule;
import dev.lychee.store.sqlite.SqliteStoreModule;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Options shared by every command that opens a memory: where it lives and how it is stored. */
final class MemoryOptions {

  /** What a command does with the memory: only read an existing one, or create it if missing. */
  enum Access { READ, CREATE }

  /** The store kinds {@code --store} takes. */
  private static final List<String> KINDS = List.of("memory", "sqlite", "lucene", "postgres");

  @Spec(Spec.Target.MIXEE) CommandSpec spec;

  @Option(names = "--store", paramLabel = "KIND",
      description = "memory (nothing kept), sqlite, lucene or postgres. Default: ${DEFAULT-VALUE}.")
  String store = "sqlite";

  @Option(names = "--db", paramLabel = "PATH",
      description = "SQLite file or Lucene directory. Default: $LYCHEE_DB, else lychee.db (sqlite) or lucene/ (lucene) "
          + "in $LYCHEE_HOME (default $HOME/.lychee).")
  Path db;

  @Option(names = "--pg-url", paramLabel = "JDBC_URL",
      description = "PostgreSQL for --store postgres: jdbc:postgresql://host:port/db?user=..&password=.. Default: $LYCHEE_PG_URL.")
  String pgUrl;

  @Option(names = "--pg-schema", paramLabel = "NAME",
      description = "Schema of --store postgres (several memories in one database). Default: $LYCHEE_PG_SCHEMA, else lychee.")
  String pgSchema;

  @Option(names = "--segmenter", paramLabel = "NAME", description = "semantic, fixed or turn. Default: ${DEFAULT-VALUE}.")
  String segmenter = "semantic";

  MemoryOptions withStore(String kind) {
    this.store = kind;
    return this;
  }

  /**
   * Checks {@code --store} and {@code --segmenter} before anything is opened or created: a bad
   * value is a usage error (exit 2) that names the option.
   */
  void validate() {
    if (!KINDS.contains(store.toLowerCase(Locale.ROOT))) {
      throw usageError("unknown --store '" + store + "' (expected memory, sqlite, lucene or postgres)");
    }
    try {
      LycheeConfig.builder().segmenter(segmenter).build();
    } catch (IllegalArgumentException e) {
      throw usageError("bad --segmenter: " + e.getMessage());
    }
  }

  private RuntimeException usageError(String message) {
    // the command line is there whenever picocli built this mixin; an IllegalArgumentException is a usage error too
    return spec == null ? new IllegalArgumentException(message) : new CommandLine.ParameterException(spec.commandLine(), message);
  }

  /**
   * Opens Lychee with the chosen store, the configured embedder and LLM, and prints which. Pending
   * segments are not resumed: only {@code ingest} and {@code encode --pending} encode.
   *
   * @throws UserError for a store that does not exist ({@link Access#READ}) or is not a store
   * @throws CommandLine.ParameterException for an unknown {@code --store} or {@code --segmenter}
   */
  Lychee open(PrintStream log, Access access) {
    return open(log, access, false);
  }

  /** Opens an existing memory ({@link Access#READ}). */
  Lychee open(PrintStream log) {
    return open(log, Access.READ, false);
  }

  /** As {@link #open(PrintStream, Access)}; {@code resume}: queue the store's pending segments on open. */
  Lychee open(PrintStream log, Access access, boolean resume) {
    validate();
    Map<String, String> environment = LycheeCli.environment();
    // read before anything is created: a bad value is a usage error naming the variable
    Optional<Duration> deadline = FallbackConfig.deadlineFromEnvironment(environment);
    String kind = store.toLowerCase(Locale.ROOT);
    List<Module> modules = new ArrayList<>();
    String where;
    if (kind.equals("memory")) {
      where = "in-memory store (nothing is kept after exit)";
    } else if (kind.equals("sqlite") || kind.equals("lucene")) {
      MemoryLocation location = MemoryLocation.resolve(kind, db, environment);
      if (access == Access.READ) {
        location.requireExisting();
      } else {
        location.createIfMissing();
      }
      modules.add(kind.equals("sqlite") ? new SqliteStoreModule(location.path()) : new LuceneStoreModule(location.path()));
      where = (kind.equals("sqlite") ? "SQLite store " : "Lucene store ") + location.path();
    } else if (kind.equals("postgres")) {
      String url = pgUrl != null ? pgUrl : environment.get("LYCHEE_PG_URL");
      if (url == null || url.isBlank()) {
        throw new UserError("--store postgres needs --pg-url or LYCHEE_PG_URL"
            + " (jdbc:postgresql://host:port/db?user=..&password=..)");
      }
      String schema = pgSchema != null ? pgSchema : environment.getOrDefault("LYCHEE_PG_SCHEMA", "lychee");
      PostgresStoreConfig settings;
      try {
        settings = PostgresStoreConfig.builder().schema(schema.trim()).build();
      } catch (IllegalArgumentException e) {
        throw new UserError(e.getMessage());
      }
      PostgresStoreModule module = new PostgresStoreModule(url, settings);
      modules.add(module);
      where = "PostgreSQL store " + module.target() + " (schema " + settings.schema() + ")";
    } else {
      throw usageError("unknown --store '" + store + "' (expected memory, sqlite, lucene or postgres)");
    }
    ProviderEnvironment env = ProviderEnvironment.from(environment);
    modules.addAll(env.modules());
    LycheeConfig.Builder chosen = LycheeConfig.builder().segmenter(segmenter);
    deadline.ifPresent(d -> chosen.fallback(FallbackConfig.defaults().withDeadline(d)));
    LycheeConfig base = chosen.build();
    LycheeConfig config = base.toBuilder().ingest(base.ingest().toBuilder().resumeOnOpen(resume).build()).build();
    log.println("lychee: " + where + "; " + env.describe());
    env.missingKey().ifPresent(m -> log.println("lychee: warning: " + m));
    return Lychee.create(config, modules.toArray(Module[]::new));
  }

  /**
   * Fails unless the namespace holds something, so that a typo is not answered with "(no
   * evidence)".
   */
  static void requireNamespace(RecordStore store, String namespace) {
    List<String> known = store.namespaces();
    if (!known.contains(namespace)) {
      throw new UserError("namespace '" + namespace + "' holds nothing here"
          + (known.isEmpty() ? " (the store is empty)" : "; namespaces: " + String.join(", ", known.stream().limit(20).toList())
          + (known.size() > 20 ? ", ..." : "")));
    }
  }

  /**
   * Fails unless the namespace holds the session, so that {@code forget --session} with a typo is
   * not answered with "removed 0 turns".
   */
  static void requireSession(RecordStore store, String namespace, String session) {
    List<String> known = store.sessions(namespace);
    if (!known.contains(session)) {
      throw new UserError("session '" + session + "' of namespace '" + namespace + "' holds nothing here"
          + (known.isEmpty() ? "" : "; sessions: " + String.join(", ", known.stream().limit(20).toList())
          + (known.size() > 20 ? ", ..." : "")));
    }
  }
}
