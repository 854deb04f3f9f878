package dev.lychee.store.postgres;

import java.util.List;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * Where a table's row binder puts its named parameters: one statement's own names, or the names of
 * one row among many in a longer statement ({@link #suffixed}), so that a row type has one binder
 * whether its rows go to the server one per statement or many per statement ({@link Pipeline}).
 */
interface Params {
  Params bind(String name, String value);

  Params bind(String name, boolean value);

  Params bind(String name, Argument value);

  Params bindArray(String name, List<String> values);

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
    return sql.replaceAll("(?<![:\\w]):([A-Za-z_][A-Za-z0-9_]*)", ":$1" + suffix);
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
