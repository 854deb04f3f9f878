package dev.lychee.server.boot;

import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --store}, {@code --pg-url} and {@code --pg-schema} of {@code serve} and {@code mcp}, the
 * same options as the CLI's. They override {@code LYCHEE_STORE}, {@code LYCHEE_PG_URL} and {@code
 * LYCHEE_PG_SCHEMA}, which {@link Backends} reads.
 */
final class StoreOptions {
  @Option(names = "--store", paramLabel = "KIND",
      description = "sqlite or postgres (one memory for several servers). Default: $LYCHEE_STORE, else sqlite.")
  String store;

  @Option(names = "--pg-url", paramLabel = "JDBC_URL",
      description = "PostgreSQL for --store postgres: jdbc:postgresql://host:port/db?user=..&password=.. Default: $LYCHEE_PG_URL.")
  String pgUrl;

  @Option(names = "--pg-schema", paramLabel = "NAME",
      description = "Schema of --store postgres. Default: $LYCHEE_PG_SCHEMA, else lychee.")
  String pgSchema;

  /** The environment with the given options in place of their variables. */
  Map<String, String> over(Map<String, String> env) {
    Map<String, String> out = new HashMap<>(env);
    if (store != null) {
      out.put("LYCHEE_STORE", store);
    }
    if (pgUrl != null) {
      out.put("LYCHEE_PG_URL", pgUrl);
    }
    if (pgSchema != null) {
      out.put("LYCHEE_PG_SCHEMA", pgSchema);
    }
    return out;
  }
}
