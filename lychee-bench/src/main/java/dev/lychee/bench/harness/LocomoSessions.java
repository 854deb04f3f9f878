package dev.lychee.bench.harness;

import dev.lychee.api.Turn;
import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoSession;
import dev.lychee.bench.locomo.LocomoTurn;
import dev.lychee.bench.systems.EvalSession;
import java.util.List;

/**
 * Turns a LoCoMo conversation into what systems ingest: session {@code D<n>} dated by its
 * {@code session_N_date_time}, each turn one user-role turn of the speaker with text
 * {@code "<speaker>: <text>[ shares photo]"} at index {@code turn - 1}.
 */
public final class LocomoSessions {
  private LocomoSessions() {}

  public static List<EvalSession> of(LocomoConversation conversation) {
    return conversation.sessions().stream().map(LocomoSessions::session).toList();
  }

  /** The same conversation with session ids suffixed by {@code copy}, for scale runs. */
  public static List<EvalSession> replica(LocomoConversation conversation, int copy) {
    return conversation.sessions().stream().map(s -> {
      EvalSession e = session(s);
      return copy == 0 ? e : new EvalSession(e.id() + "r" + copy, e.date(), e.turns());
    }).toList();
  }

  private static EvalSession session(LocomoSession s) {
    return new EvalSession(s.id(), s.date(), s.turns().stream().map(LocomoSessions::turn).toList());
  }

  private static Turn turn(LocomoTurn t) {
    return Turn.user(t.speaker(), t.text()).withIndex(t.id().turn() - 1);
  }
}
