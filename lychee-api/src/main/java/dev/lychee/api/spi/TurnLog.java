package dev.lychee.api.spi;

import dev.lychee.api.RawTurn;
import dev.lychee.api.TurnRef;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The append-only log of raw turns, by namespace and session: what the write path commits before
 * any LLM call, and what source windows and lexical channels read back.
 *
 * <p>Appending a turn whose (session, index) is stored is a no-op; the stored turn never changes.
 * Turns come back by index, sessions in the order their first turn was stored. An unknown
 * namespace or session is empty, not an error.
 */
public interface TurnLog {

  /**
   * Stores turns of one session in one transaction.
   *
   * @return the turns that were new (already stored refs are skipped), in input order
   */
  List<RawTurn> appendTurns(String namespace, String session, List<RawTurn> turns);

  /**
   * Stores turns of one session in one transaction, choosing the indices of turns that came without
   * one inside that transaction: the turns stored are those {@code admit} returns for the
   * session's first free index as the store sees it under its write lock. Two writers appending to
   * one session (threads, or processes sharing a database) therefore never take the same index, so
   * no acknowledged turn is silently dropped as "already stored". {@code admit} must have no side
   * effects: a store may call it more than once, for a retried transaction or with the index it
   * expects before it checks under the lock that the index is that one.
   *
   * <p>The default holds this instance's monitor around {@link #nextTurnIndex} and
   * {@link #appendTurns(String, String, List)}: enough for stores that one process opens at a time
   * (in memory, Lucene). Stores that several processes share (SQLite, PostgreSQL) override it.
   *
   * @return the turns that were new, as {@link #appendTurns(String, String, List)} returns them
   */
  default List<RawTurn> appendTurns(String namespace, String session, IntFunction<List<RawTurn>> admit) {
    synchronized (this) {
      return appendTurns(namespace, session, admit.apply(nextTurnIndex(namespace, session)));
    }
  }

  /** One past the highest stored turn index of the session (0 for an empty session). */
  int nextTurnIndex(String namespace, String session);

  Optional<RawTurn> turn(String namespace, TurnRef ref);

  /** The stored turns of a session with index in {@code [from, to]}, clamped to what exists. */
  List<RawTurn> turns(String namespace, String session, int from, int to);

  /**
   * The stored turns for several refs at once, in the order of {@code refs}; unknown refs are
   * skipped and a repeated ref comes back once. Recall channels use it to fetch their candidates in
   * one round trip; the default asks {@link #turn} for each ref, and durable stores override it.
   */
  default List<RawTurn> turns(String namespace, Collection<TurnRef> refs) {
    return refs.stream().distinct().map(r -> turn(namespace, r)).flatMap(Optional::stream).toList();
  }

  /** All stored turns of a session, by index. */
  List<RawTurn> turns(String namespace, String session);

  /** The sessions of a namespace, in the order their first turn was stored. */
  List<String> sessions(String namespace);

  /** All namespaces that hold at least one turn. */
  List<String> namespaces();

  /** How many turns the namespace holds. */
  long countTurns(String namespace);
}
