package dev.lychee.core.conformance;

import dev.lychee.api.CloseReason;
import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Builders of test data shared by the store conformance suites. */
public final class StoreFixtures {
  private StoreFixtures() {}

  /** A fixed session date, second precision (what every store must round-trip exactly). */
  public static final LocalDateTime T0 = LocalDateTime.of(2023, 5, 7, 13, 56, 12);

  public static final List<String> WORDS = List.of("apple", "river", "guitar", "meeting", "paris",
      "hiking", "doctor", "painting", "coffee", "train", "garden", "piano", "soccer", "book",
      "concert", "sister", "kitchen", "camera", "winter", "beach");

  public static RawTurn turn(String ns, String session, int index, String text) {
    return new RawTurn(ns, TurnRef.of(session, index), index % 2 == 0 ? Role.USER : Role.ASSISTANT,
        index % 2 == 0 ? "Nadia" : null, text, T0.plusMinutes(index));
  }

  /** {@code n} turns with indices {@code from..from+n-1} and texts built from {@code words}. */
  public static List<RawTurn> turns(String ns, String session, int from, int n, Random rnd, String marker) {
    List<RawTurn> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      out.add(turn(ns, session, i, sentence(rnd, 6) + " " + marker));
    }
    return out;
  }

  public static String sentence(Random rnd, int words) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(WORDS.get(rnd.nextInt(WORDS.size())));
    }
    return sb.toString();
  }

  public static Segment segment(List<RawTurn> turns, CloseReason reason) {
    RawTurn first = turns.get(0);
    return new Segment(first.namespace(), first.session(), turns, Math.max(1, turns.size() / 2),
        turns.size() * 10, reason, reason == CloseReason.SEMANTIC_BOUNDARY ? 1.5 : Double.NaN,
        reason == CloseReason.SEMANTIC_BOUNDARY ? 0.7 : Double.NaN);
  }

  public static TemporalScope day(LocalDate d) {
    return new TemporalScope(d.toString(), "", "", DateRange.day(d), false);
  }

  public static MemoryRecord record(String ns, String text, MemoryType type, TemporalScope temporal,
      List<String> entities, List<String> tags, TurnRef... evidence) {
    return new MemoryRecord(null, ns, type, text, entities, tags, temporal, List.of(evidence),
        evidence[0].session(), evidence[0].session() + ":0-9", SourceRole.USER, T0);
  }

  public static MemoryRecord record(String ns, String text, TurnRef... evidence) {
    return record(ns, text, MemoryType.FACT, TemporalScope.NONE, List.of(), List.of(), evidence);
  }

  public static EvidenceNode node(String ns, NodeKind kind, String key, String text,
      List<String> recordIds, String session, DateRange span) {
    return new EvidenceNode(null, ns, kind, key, key, text, recordIds, List.of(session),
        List.of(key), List.of("tag-" + key), span, List.of(new TurnRange(session, 0, 3)));
  }
}
