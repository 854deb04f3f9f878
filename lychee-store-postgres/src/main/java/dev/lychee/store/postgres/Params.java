package dev.lychee.store.postgres;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.regex.Pattern;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * Where a table's row binder puts its named parameters: one statement's own names, the names of
 * one statement among several in one statement text ({@link #suffixed}, {@link Pipeline}), or one
 * row among many, each parameter an array of all rows' values ({@link RowArrays}), so that a row
 * type has one binder whether its rows go to the server one per statement or many per statement.
 */
interface Params {
  /** A named parameter in SQL ({@code :name}; a cast's {@code ::} is not one), its name the group. */
  Pattern PARAMETER = Pattern.compile("(?<![:\\w]):([A-Za-z_][A-Za-z0-9_]*)");

  Params bind(String name, String value);

  Params bind(String name, boolean value);

  Params bind(String name, Argument value);

  Params bindArray(String name, List<String> values);

  /** A date, bound through the driver's {@code java.time} support ({@link Columns#day(LocalDate)}). */
  default Params day(String name, LocalDate value) {
    return bind(name, Columns.day(value));
  }

  /** A date-time, bound through the driver's {@code java.time} support ({@link Columns#time(LocalDateTime)}). */
  default Params time(String name, LocalDateTime value) {
    return bind(name, Columns.time(value));
  }

  /** These parameters with {@code suffix} appended to every name, as {@link #rename} writes them into SQL. */
  default Params suffixed(String suffix) {
    Params to = this;
    return new Params() {
      @Override
      public Params bind(String name, String value) {
        to.bind(name + suffix, value);
        return this;
      }

      @Override
      public Params bind(String name, boolean value) {
        to.bind(name + suffix, value);
        return this;
      }

      @Override
      public Params bind(String name, Argument value) {
        to.bind(name + suffix, value);
        return this;
      }

      @Override
      public Params bindArray(String name, List<String> values) {
        to.bindArray(name + suffix, values);
        return this;
      }
    };
  }

  /**
   * {@code sql} with {@code suffix} appended to every named parameter ({@code :name}; a cast's
   * {@code ::} is left alone). The SQL this store builds has no colon inside a string literal.
   */
  static String rename(String sql, String suffix) {
    return PARAMETER.matcher(sql).replaceAll(":$1" + suffix);
  }

  /** The parameters of one JDBI statement, under their own names. */
  static Params of(SqlStatement<?> st) {
    return new Params() {
      @Override
      public Params bind(String name, String value) {
        st.bind(name, value);
        return this;
      }

      @Override
      public Params bind(String name, boolean value) {
        st.bind(name, value);
        return this;
      }

      @Override
      public Params bind(String name, Argument value) {
        st.bind(name, value);
        return this;
      }

      @Override
      public Params bindArray(String name, List<String> values) {
        st.bindArray(name, String.class, values);
        return this;
      }
    };
  }
}
