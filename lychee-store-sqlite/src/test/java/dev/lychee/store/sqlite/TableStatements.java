package dev.lychee.store.sqlite;

import java.util.concurrent.atomic.AtomicInteger;
import org.jdbi.v3.core.statement.SqlLogger;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Counts the statements a database runs on one table, told by the table's name between spaces in
 * the rendered SQL; the copy tests use it to show that a read was answered from memory.
 */
final class TableStatements {
  private TableStatements() {}

  /** A counter of the statements {@code db} runs on any of {@code tables} from now on. */
  static AtomicInteger count(SqliteDatabase db, String... tables) {
    AtomicInteger n = new AtomicInteger();
    db.jdbi().setSqlLogger(new SqlLogger() {
      @Override
      public void logBeforeExecution(StatementContext context) {
        String sql = context.getRenderedSql();
        for (String table : tables) {
          if (sql.contains(" " + table + " ")) {
            n.incrementAndGet();
            return;
          }
        }
      }
    });
    return n;
  }
}
