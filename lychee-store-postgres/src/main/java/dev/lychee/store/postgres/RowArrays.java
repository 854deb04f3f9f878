package dev.lychee.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.argument.Argument;
import org.postgresql.core.BaseConnection;
import org.postgresql.jdbc.TimestampUtils;

/**
 * Many rows' parameters as one array per parameter, for a statement whose text does not depend on
 * the number of rows: a table's row binder binds each row into it, and the statement reads the
 * rows back with {@code unnest} ({@link #unnest}).
 *
 * <p>Why (round twenty-two, docs/measurements.md §6): a multi-row {@code VALUES} list of named
 * parameters is a new statement text for every row count, so every segment's inserts and rewrites
 * were parsed by JDBI, by the driver and by the server, and planned afresh (about 3 ms of server
 * planning per segment, and the JDBI parse of a statement of a few thousand characters on the
 * encoder's thread). With one array per column the text is fixed, so each is parsed once and the
 * driver keeps it prepared on the server ({@code prepareThreshold}, 5 uses by default).
 *
 * <p>Dates and date-times go as arrays of the driver's own text for each value (what it sends for
 * one such parameter), so the server stores exactly what one statement per row stored: the driver
 * rounds a date-time to microseconds half up and writes {@code infinity} and BC dates its own way,
 * where the server's parse of {@code LocalDateTime.toString()} rounds half to even and refuses
 * years past 9999.
 */
final class RowArrays implements Params {
  /** A parameter's type, fixed by which binding method a binder calls for it. */
  private enum Kind {
    TEXT("text"), BOOL("boolean"), DATE("date"), TIME("timestamp");

    private final String sqlType;

    Kind(String sqlType) {
      this.sqlType = sqlType;
    }
  }

  private record Column(Kind kind, List<Object> values) {}

  private final Map<String, Column> columns = new LinkedHashMap<>();

  private Params add(String name, Kind kind, Object value) {
    Column c = columns.computeIfAbsent(name, n -> new Column(kind, new ArrayList<>()));
    if (c.kind() != kind) {
      throw new IllegalStateException("parameter " + name + " bound as " + kind + " after " + c.kind());
    }
    c.values().add(value);
    return this;
  }

  @Override
  public Params bind(String name, String value) {
    return add(name, Kind.TEXT, value);
  }

  @Override
  public Params bind(String name, boolean value) {
    return add(name, Kind.BOOL, value);
  }

  @Override
  public Params day(String name, LocalDate value) {
    return add(name, Kind.DATE, value);
  }

  @Override
  public Params time(String name, LocalDateTime value) {
    return add(name, Kind.TIME, value);
  }

  /** Not for arrays: an argument's value cannot be read back to join a column. */
  @Override
  public Params bind(String name, Argument value) {
    throw new UnsupportedOperationException("parameter " + name + ": an Argument cannot join an array");
  }

  @Override
  public Params bindArray(String name, List<String> values) {
    throw new UnsupportedOperationException("parameter " + name + ": an array cannot join an array");
  }

  /**
   * {@code unnest(CAST(:a AS text[]), ...) WITH ORDINALITY AS alias(a, ..., ord)}: the rows as a
   * set, one column per parameter (in the order first bound) and {@code ord}, each row's place.
   * The text depends only on which parameters were bound and how, not on the number of rows.
   */
  String unnest(String alias) {
    StringBuilder args = new StringBuilder();
    StringBuilder names = new StringBuilder();
    columns.forEach((name, c) -> {
      args.append(args.isEmpty() ? "" : ", ").append("CAST(:").append(name).append(" AS ").append(c.kind().sqlType)
          .append("[])");
      names.append(name).append(", ");
    });
    return "unnest(" + args + ") WITH ORDINALITY AS " + alias + "(" + names + "ord)";
  }

  /**
   * {@code sql} (an expression list over named parameters, as a row binder binds them) with every
   * parameter {@code :name} read from the unnested rows' column {@code alias.name} instead.
   */
  static String columnsOf(String sql, String alias) {
    return PARAMETER.matcher(sql).replaceAll(alias + ".$1");
  }

  /** Binds each parameter's array into {@code to}, under the parameter's own name. */
  void bindTo(Params to) {
    int rows = -1;
    for (Map.Entry<String, Column> e : columns.entrySet()) {
      List<Object> values = e.getValue().values();
      if (rows >= 0 && values.size() != rows) {
        throw new IllegalStateException("parameter " + e.getKey() + " has " + values.size() + " rows, not " + rows);
      }
      rows = values.size();
      to.bind(e.getKey(), array(e.getValue()));
    }
  }

  private static Argument array(Column c) {
    return (position, statement, ctx) -> {
      Connection conn = statement.getConnection();
      Object[] elements = switch (c.kind()) {
        case TEXT -> c.values().toArray(new String[0]);
        case BOOL -> c.values().toArray(new Boolean[0]);
        case DATE, TIME -> driverTexts(conn, c.values());
      };
      statement.setArray(position, conn.createArrayOf(c.kind().sqlType, elements));
    };
  }

  /** Each date or date-time as the driver writes it for one parameter ({@code setObject}). */
  private static String[] driverTexts(Connection conn, List<Object> values) throws SQLException {
    TimestampUtils t = conn.unwrap(BaseConnection.class).getTimestampUtils();
    String[] out = new String[values.size()];
    for (int i = 0; i < out.length; i++) {
      Object v = values.get(i);
      out[i] = v == null ? null : v instanceof LocalDate d ? t.toString(d) : t.toString((LocalDateTime) v);
    }
    return out;
  }
}
