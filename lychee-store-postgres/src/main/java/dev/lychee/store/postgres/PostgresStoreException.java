package dev.lychee.store.postgres;

import dev.lychee.api.LycheeException;

/**
 * PostgreSQL could not serve a call: the server stayed unreachable past the retry window, refused
 * the schema, or failed in a way that retrying cannot fix. Messages name the server (host, port,
 * database) but never credentials.
 */
public class PostgresStoreException extends LycheeException {
  public PostgresStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public PostgresStoreException(String message) {
    super(message);
  }
}
