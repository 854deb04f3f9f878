package dev.lychee.store.postgres;

import org.jdbi.v3.core.statement.SqlStatement;

/** The WHERE clause of a deletion scoped to a namespace, or to one session of it. */
final class Scope {
  private Scope() {}

  static String where(String session) {
    return session == null ? "namespace = :ns" : "namespace = :ns AND session = :s";
  }

  static <S extends SqlStatement<S>> S bind(S statement, String ns, String session) {
    statement.bind("ns", ns);
    return session == null ? statement : statement.bind("s", session);
  }
}
