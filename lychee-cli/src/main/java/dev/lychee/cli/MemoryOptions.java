package dev.lychee.cli;

import com.google.inject.Module;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.store.lucene.LuceneStoreModule;
import dev.lychee.store.postgres.PostgresStoreModule;
import dev.lychee.store.sqlite.SqliteStoreModule;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/** Options shared by every command that opens a memory: where it lives and how it is stored. */
final class MemoryOptions {

  @Option(names = "--store", paramLabel = "KIND",
      description = "memory (nothing kept), sqlite, lucene or postgres. Default: ${DEFAULT-VALUE}.")
  String store = "sqlite";

  @Option(names = "--db", paramLabel = "PATH",
      description = "SQLite file or Lucene directory. Default: ~/.lychee/lychee.db (sqlite), ~/.lychee/lucene (lucene).")
  Path db;

  @Option(names = "--pg-url", paramLabel = "JDBC_URL",
      description = "PostgreSQL for --store postgres: jdbc:postgresql://host:port/db?user=..&password=.. Default: $LYCHEE_PG_URL.")
  String pgUrl;

  @Option(names = "--segmenter", paramLabel = "NAME", description = "semantic, fixed or turn. Default: ${DEFAULT-VALUE}.")
  String segmenter = "semantic";

  MemoryOptions withStore(String kind) {
    this.store = kind;
    return this;
  }

  /**
   * Opens Lychee with the chosen store, the configured embedder and LLM, and prints which. Pending
   * segments are not resumed: only {@code ingest} and {@code encode --pending} encode.
   */
  Lychee open(PrintStream log) {
    return open(log, false);
  }

  /** As {@link #open(PrintStream)}; {@code resume}: queue the store's pending segments on open. */
  Lychee open(PrintStream log, boolean resume) {
    ProviderEnvironment env = ProviderEnvironment.from(System.getenv());
    List<Module> modules = new ArrayList<>(env.modules());
    String where = switch (store.toLowerCase(Locale.ROOT)) {
      case "memory" -> "in-memory store (nothing is kept after exit)";
      case "sqlite" -> {
        Path file = db != null ? db : home().resolve("lychee.db");
        createParent(file);
        modules.add(new SqliteStoreModule(file));
        yield "SQLite store " + file;
      }
      case "lucene" -> {
        Path dir = db != null ? db : home().resolve("lucene");
        createParent(dir.resolve("x"));
        modules.add(new LuceneStoreModule(dir));
        yield "Lucene store " + dir;
      }
      case "postgres" -> {
        String url = pgUrl != null ? pgUrl : System.getenv("LYCHEE_PG_URL");
        if (url == null || url.isBlank()) {
          throw new IllegalArgumentException("--store postgres needs --pg-url or LYCHEE_PG_URL"
              + " (jdbc:postgresql://host:port/db?user=..&password=..)");
        }
        PostgresStoreModule module = new PostgresStoreModule(url);
        modules.add(module);
        yield "PostgreSQL store " + module.target();
      }
      default -> throw new IllegalArgumentException("unknown --store '" + store
          + "' (expected memory, sqlite, lucene or postgres)");
    };
    LycheeConfig base = LycheeConfig.builder().segmenter(segmenter).build();
    LycheeConfig config = base.toBuilder().ingest(base.ingest().toBuilder().resumeOnOpen(resume).build()).build();
    log.println("lychee: " + where + "; " + env.describe());
    env.missingKey().ifPresent(m -> log.println("lychee: warning: " + m));
    return Lychee.create(config, modules.toArray(Module[]::new));
  }

  private static Path home() {
    return Path.of(System.getProperty("user.home"), ".lychee");
  }

  private static void createParent(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot create " + file.getParent() + ": " + e.getMessage(), e);
    }
  }
}
