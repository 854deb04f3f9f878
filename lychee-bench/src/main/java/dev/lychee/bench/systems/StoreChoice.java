package dev.lychee.bench.systems;

import com.google.inject.Module;
import dev.lychee.store.lucene.LuceneStoreModule;
import dev.lychee.store.postgres.PostgresStoreConfig;
import dev.lychee.store.postgres.PostgresStoreModule;
import dev.lychee.store.sqlite.SqliteStoreModule;
import java.nio.file.Path;
import java.util.Locale;

/** Where the {@code lychee} systems keep records and vectors during a run. */
public enum StoreChoice {
  /** The in-memory record store and exact vector index (default). */
  MEMORY,
  /** The SQLite store (a real file DB) in a temporary directory. */
  SQLITE,
  /** The Lucene store (a real index) in a temporary directory. */
  LUCENE,
  /**
   * The PostgreSQL store on the server of {@code LYCHEE_PG_URL}, in schema {@code lychee_bench};
   * the run forgets what it wrote when a system closes.
   */
  POSTGRES;

  /** The schema benchmark runs write to, so that they never touch a user's {@code lychee} schema. */
  public static final String POSTGRES_SCHEMA = "lychee_bench";

  public static StoreChoice parse(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("unknown store '" + name + "' (expected memory, sqlite, lucene or postgres)");
    }
  }

  /** The Guice module binding this store under {@code dir}; null for {@link #MEMORY}. */
  public Module module(Path dir) {
    return switch (this) {
      case MEMORY -> null;
      case SQLITE -> new SqliteStoreModule(dir.resolve("lychee.db"));
      case LUCENE -> new LuceneStoreModule(dir.resolve("lucene"));
      case POSTGRES -> {
        String url = System.getenv("LYCHEE_PG_URL");
        if (url == null || url.isBlank()) {
          throw new IllegalArgumentException("--store postgres needs LYCHEE_PG_URL=jdbc:postgresql://host:port/db?user=..");
        }
        yield new PostgresStoreModule(url, PostgresStoreConfig.builder().schema(POSTGRES_SCHEMA).build());
      }
    };
  }
}
