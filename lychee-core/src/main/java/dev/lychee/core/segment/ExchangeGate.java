package dev.lychee.core.segment;

import dev.lychee.api.Exchange;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Admits each exchange of one session once. An exchange that starts at or before the last turn
 * already taken is a re-offer and is refused, which makes re-sending turns idempotent. The mark
 * survives flushes: a flushed turn re-sent later is still a re-offer.
 *
 * <p>Fragments of one oversized turn all carry that turn's index, so a fragment at the mark is
 * admitted when the mark's turn was itself taken as fragments and this fragment's text has not been
 * taken yet. (Two identical fragments of one turn cannot be told apart; the second is dropped.)
 */
final class ExchangeGate {
  private final String namespace;
  private final String session;
  private int mark = -1;
  private final Set<String> fragmentsAtMark = new HashSet<>();

  ExchangeGate(String namespace, String session) {
    this.namespace = namespace;
    this.session = session;
  }

  /**
   * True if {@code e} is new (and records it as taken).
   *
   * @throws IllegalArgumentException if the exchange belongs to another namespace or session
   */
  boolean admit(Exchange e) {
    Objects.requireNonNull(e, "exchange");
    if (!e.namespace().equals(namespace) || !e.session().equals(session)) {
      throw new IllegalArgumentException("this segmenter serves " + namespace + "/" + session
          + ", not " + e.namespace() + "/" + e.session());
    }
    if (e.forceFinalize() && e.firstIndex() == mark && e.lastIndex() == mark) {
      return !fragmentsAtMark.isEmpty() && fragmentsAtMark.add(e.text());
    }
    if (e.firstIndex() <= mark) {
      return false;
    }
    mark = e.lastIndex();
    fragmentsAtMark.clear();
    if (e.forceFinalize()) {
      fragmentsAtMark.add(e.text());
    }
    return true;
  }
}
