package dev.lychee.store.postgres;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/** Tells failures worth retrying (the server or the link went away, a conflict) from the rest. */
final class Failures {
  private Failures() {}

  /**
   * True when the failure says nothing about the statement itself: a lost or refused connection
   * (SQLSTATE class 08), the server shutting down or starting up (57P01-57P03), too many
   * connections (53300), a serialisation failure or deadlock (40001, 40P01), a lock wait past
   * {@code lock_timeout} (55P03: the holder may be gone by the next attempt), the pool timing out
   * while the server is away, or the pool handing out a connection the server had dropped. A
   * socket timeout is a lost connection to the driver (08006).
   */
  static boolean isTransient(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof SQLTransientConnectionException) {
        return true;
      }
      // the pool's proxy of a connection the server dropped: nothing of the transaction ran yet
      if (c instanceof SQLException e && e.getSQLState() == null && "Connection is closed".equals(e.getMessage())) {
        return true;
      }
      if (c instanceof SQLException e && e.getSQLState() != null) {
        String s = e.getSQLState();
        if (s.startsWith("08") || s.equals("57P01") || s.equals("57P02") || s.equals("57P03")
            || s.equals("53300") || s.equals("40001") || s.equals("40P01") || s.equals("55P03")) {
          return true;
        }
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return false;
  }

  /**
   * True when the server cancelled a statement (SQLSTATE 57014): this store cancels none itself,
   * so it ran past {@code statement_timeout}.
   */
  static boolean isStatementTimeout(Throwable t) {
    for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
      if (c instanceof SQLException e && "57014".equals(e.getSQLState())) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when the failure is a unique violation (SQLSTATE 23505): a row whose key is stored
   * already. {@link TurnTable#appendInOrder} meets one only when a turn broke the rule it relies
   * on, and its statement then wrote nothing.
   */
  static boolean isUniqueViolation(Throwable t) {
    for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
      if (c instanceof SQLException e && "23505".equals(e.getSQLState())) {
        return true;
      }
    }
    return false;
  }

  /** The innermost message, for error texts (PostgreSQL messages never carry passwords). */
  static String rootMessage(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
  }
}
