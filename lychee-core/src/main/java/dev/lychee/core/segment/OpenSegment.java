package dev.lychee.core.segment;

import dev.lychee.api.CloseReason;
import dev.lychee.api.Exchange;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Segment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The segment being filled: its turns, exchange vectors, token and exchange counts. */
final class OpenSegment {
  private final String namespace;
  private final String session;
  private final List<RawTurn> turns = new ArrayList<>();
  private final List<float[]> vectors = new ArrayList<>();
  private final List<float[]> vectorsView = Collections.unmodifiableList(vectors);
  private int tokens;
  private int exchanges;

  OpenSegment(String namespace, String session) {
    this.namespace = namespace;
    this.session = session;
  }

  void add(Exchange e) {
    turns.addAll(e.turns());
    vectors.add(e.vector());
    tokens += e.tokens();
    exchanges++;
  }

  boolean isEmpty() {
    return exchanges == 0;
  }

  int tokens() {
    return tokens;
  }

  int exchanges() {
    return exchanges;
  }

  /** The exchange vectors, oldest first (a read-only view). */
  List<float[]> vectors() {
    return vectorsView;
  }

  /** Closes the segment with its reason, score and probability, and empties this buffer. */
  Segment close(CloseReason reason, double score, double probability) {
    Segment s = new Segment(namespace, session, turns, exchanges, tokens, reason, score, probability);
    turns.clear();
    vectors.clear();
    tokens = 0;
    exchanges = 0;
    return s;
  }
}
