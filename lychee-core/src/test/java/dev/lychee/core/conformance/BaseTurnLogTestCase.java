package dev.lychee.core.conformance;

import static dev.lychee.core.conformance.StoreFixtures.T0;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TextField;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of {@link dev.lychee.api.spi.TurnLog}: the turn log: appends are idempotent, turns come back by index, windows clamp, sessions and namespaces are listed, and writers that let the store choose indices never collide.
 * {@link BaseRecordStoreTestCase} runs it against every backend; random data comes from fixed
 * seeds so that a failure reproduces.
 */
public abstract class BaseTurnLogTestCase extends StoreCase {

  @Test
  void turnsRoundTripWithEveryField() {
    List<RawTurn> in = List.of(
        new RawTurn("ns", TurnRef.of("s1", 0), Role.USER, "Nadia", "I went to a choir rehearsal.", T0),
        new RawTurn("ns", TurnRef.of("s1", 1), Role.ASSISTANT, null, "That sounds good!", null),
        new RawTurn("ns", TurnRef.of("s1", 2), Role.SYSTEM, "Ops", "Nadia: é ü 漢字 🍒", T0.plusHours(1)));
    assertThat(store.appendTurns("ns", "s1", in)).isEqualTo(in);
    reopenIfSupported();
    assertThat(store.turns("ns", "s1")).isEqualTo(in);
    assertThat(store.turn("ns", TurnRef.of("s1", 2))).contains(in.get(2));
    assertThat(store.turn("ns", TurnRef.of("s1", 3))).isEmpty();
    assertThat(store.turn("ns", TurnRef.of("other", 0))).isEmpty();
    assertThat(store.countTurns("ns")).isEqualTo(3);
    assertThat(store.nextTurnIndex("ns", "s1")).isEqualTo(3);
    assertThat(store.nextTurnIndex("ns", "nope")).isZero();
  }

  @Test
  void namesHoldingSeparatorCharactersNeverAliasEachOther() {
    // joined with NUL, the turn (ns "a\0b", session "c") and (ns "a", session "b\0c") would share one
    // key; a store may refuse such names, but must never let one stand for the other
    RawTurn first = new RawTurn("a\u0000b", TurnRef.of("c", 0), Role.USER, "Ann", "first namespace", T0);
    RawTurn second = new RawTurn("a", TurnRef.of("b\u0000c", 0), Role.USER, "Bob", "second namespace", T0);
    boolean accepted;
    try {
      store.appendTurns(first.namespace(), "c", List.of(first));
      accepted = true;
    } catch (IllegalArgumentException refused) {
      accepted = false;
    }
    if (!accepted) {
      assertThatThrownBy(() -> store.appendTurns(second.namespace(), "b\u0000c", List.of(second)))
          .isInstanceOf(IllegalArgumentException.class);
      return;
    }
    assertThat(store.appendTurns(second.namespace(), "b\u0000c", List.of(second))).containsExactly(second);
    reopenIfSupported();
    assertThat(store.turns("a\u0000b", "c")).containsExactly(first);
    assertThat(store.turns("a", "b\u0000c")).containsExactly(second);
    assertThat(store.countTurns("a")).isEqualTo(1);
    assertThat(store.countTurns("a\u0000b")).isEqualTo(1);
  }

  @Test
  void turnsComeBackByIndexWhateverTheAppendOrder() {
    List<RawTurn> shuffled = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      shuffled.add(turn("ns", "s", i, "text " + i));
    }
    Collections.shuffle(shuffled, new Random(7));
    store.appendTurns("ns", "s", shuffled.subList(0, 15));
    store.appendTurns("ns", "s", shuffled.subList(15, 30));
    assertThat(store.turns("ns", "s")).extracting(RawTurn::index)
        .containsExactlyElementsOf(IntStream.range(0, 30).boxed().toList());
  }

  @Test
  void reAppendingTurnsIsIdempotent() {
    List<RawTurn> first = List.of(turn("ns", "s", 0, "a"), turn("ns", "s", 1, "b"));
    store.appendTurns("ns", "s", first);
    // same refs with other text: the stored turn is never altered
    List<RawTurn> again = List.of(turn("ns", "s", 0, "CHANGED"), turn("ns", "s", 1, "b"),
        turn("ns", "s", 2, "c"), turn("ns", "s", 2, "c duplicate in one call"));
    List<RawTurn> added = store.appendTurns("ns", "s", again);
    assertThat(added).containsExactly(again.get(2));
    assertThat(store.turns("ns", "s")).extracting(RawTurn::text).containsExactly("a", "b", "c");
    assertThat(store.countTurns("ns")).isEqualTo(3);
    assertThat(store.appendTurns("ns", "s", again)).isEmpty();
    assertThat(store.searchText("ns", TextField.TURNS, "changed", 5)).isEmpty();
    assertThat(store.appendTurns("ns", "s", List.of())).isEmpty();
  }

  /**
   * The session's next index follows every append, late and repeated turns change nothing, and
   * forgetting a session or namespace starts it again at 0 (a store may keep the index in memory
   * once it was asked for it; this checks that it stays right).
   */
  @Test
  void nextTurnIndexFollowsAppendsAndForgetting() {
    assertThat(store.nextTurnIndex("ns", "s")).isZero();
    store.appendTurns("ns", "s", next -> List.of(turn("ns", "s", next, "a"), turn("ns", "s", next + 1, "b")));
    assertThat(store.nextTurnIndex("ns", "s")).isEqualTo(2);
    // after the stored turns, then a repeat (same text: nothing new) and a late turn into a gap
    assertThat(store.appendTurns("ns", "s", List.of(turn("ns", "s", 4, "e")))).hasSize(1);
    assertThat(store.nextTurnIndex("ns", "s")).isEqualTo(5);
    assertThat(store.appendTurns("ns", "s", List.of(turn("ns", "s", 4, "e")))).isEmpty();
    assertThat(store.appendTurns("ns", "s", List.of(turn("ns", "s", 4, "E changed")))).isEmpty();
    assertThat(store.appendTurns("ns", "s", List.of(turn("ns", "s", 3, "d")))).hasSize(1);
    assertThat(store.nextTurnIndex("ns", "s")).isEqualTo(5);
    assertThat(store.turns("ns", "s")).extracting(RawTurn::text).containsExactly("a", "b", "d", "e");
    store.appendTurns("ns", "t", List.of(turn("ns", "t", 0, "other session")));
    store.appendTurns("other", "s", List.of(turn("other", "s", 0, "other namespace")));
    assertThat(store.nextTurnIndex("other", "s")).isEqualTo(1);

    store.forget("ns", "s");
    assertThat(store.nextTurnIndex("ns", "s")).isZero();
    assertThat(store.nextTurnIndex("ns", "t")).isEqualTo(1);
    store.appendTurns("ns", "s", next -> List.of(turn("ns", "s", next, "again")));
    assertThat(store.turns("ns", "s")).extracting(RawTurn::index).containsExactly(0);
    assertThat(store.nextTurnIndex("ns", "s")).isEqualTo(1);

    store.forget("ns");
    assertThat(store.nextTurnIndex("ns", "s")).isZero();
    assertThat(store.nextTurnIndex("ns", "t")).isZero();
    assertThat(store.nextTurnIndex("other", "s")).isEqualTo(1);
    store.appendTurns("ns", "s", List.of(turn("ns", "s", 0, "fresh")));
    assertThat(store.turns("ns", "s")).extracting(RawTurn::text).containsExactly("fresh");
    assertThat(store.nextTurnIndex("ns", "s")).isEqualTo(1);
  }

  @Test
  void turnWindowsAreClamped() {
    for (int i = 0; i < 10; i++) {
      store.appendTurns("ns", "s", List.of(turn("ns", "s", i, "t" + i)));
    }
    assertThat(store.turns("ns", "s", -5, 2)).extracting(RawTurn::index).containsExactly(0, 1, 2);
    assertThat(store.turns("ns", "s", 7, 1000)).extracting(RawTurn::index).containsExactly(7, 8, 9);
    assertThat(store.turns("ns", "s", 4, 4)).extracting(RawTurn::index).containsExactly(4);
    assertThat(store.turns("ns", "s", 6, 3)).isEmpty();
    assertThat(store.turns("ns", "s", 20, 30)).isEmpty();
    assertThat(store.turns("ns", "missing", 0, 3)).isEmpty();
    assertThat(store.turns("nobody", "s", 0, 3)).isEmpty();
    assertThat(store.turns("ns", "s", Integer.MIN_VALUE, Integer.MAX_VALUE)).hasSize(10);
  }

  @Test
  void batchTurnLookUpKeepsRequestOrderAndSkipsUnknownRefs() {
    for (int i = 0; i < 5; i++) {
      store.appendTurns("ns", "a", List.of(turn("ns", "a", i, "a" + i)));
      store.appendTurns("ns", "b", List.of(turn("ns", "b", i, "b" + i)));
    }
    store.appendTurns("other", "a", List.of(turn("other", "a", 7, "secret")));
    List<TurnRef> refs = List.of(TurnRef.of("b", 3), TurnRef.of("a", 1), TurnRef.of("a", 99),
        TurnRef.of("b", 3), TurnRef.of("a", 7), TurnRef.of("nope", 0), TurnRef.of("a", 4));
    assertThat(store.turns("ns", refs)).extracting(RawTurn::text).containsExactly("b3", "a1", "a4");
    assertThat(store.turns("ns", List.of())).isEmpty();
    assertThat(store.turns("other", refs)).extracting(RawTurn::text).containsExactly("secret");
  }

  @Test
  void windowsSkipHoles() {
    store.appendTurns("ns", "s", List.of(turn("ns", "s", 0, "a"), turn("ns", "s", 5, "b"), turn("ns", "s", 9, "c")));
    assertThat(store.turns("ns", "s", 1, 8)).extracting(RawTurn::index).containsExactly(5);
    assertThat(store.nextTurnIndex("ns", "s")).isEqualTo(10);
  }

  @Test
  void sessionsAndNamespacesAreListed() {
    store.appendTurns("b", "zeta", List.of(turn("b", "zeta", 0, "x")));
    store.appendTurns("b", "alpha", List.of(turn("b", "alpha", 0, "x")));
    store.appendTurns("b", "zeta", List.of(turn("b", "zeta", 1, "y")));
    store.appendTurns("a", "mid", List.of(turn("a", "mid", 0, "x")));
    assertThat(store.sessions("b")).containsExactly("zeta", "alpha");
    assertThat(store.sessions("a")).containsExactly("mid");
    assertThat(store.sessions("c")).isEmpty();
    assertThat(store.namespaces()).containsExactlyInAnyOrder("a", "b");
    reopenIfSupported();
    assertThat(store.sessions("b")).containsExactly("zeta", "alpha");
    assertThat(store.namespaces()).containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void emptyAndHugeTurnTexts() {
    String huge = "lychee " + "word ".repeat(40_000) + " needle"; // ~200 kB
    RawTurn big = turn("ns", "s", 0, huge);
    RawTurn empty = new RawTurn("ns", TurnRef.of("s", 1), Role.ASSISTANT, null, "", null);
    store.appendTurns("ns", "s", List.of(big, empty));
    reopenIfSupported();
    assertThat(store.turn("ns", big.ref()).orElseThrow().text()).isEqualTo(huge);
    assertThat(store.turn("ns", empty.ref()).orElseThrow().text()).isEmpty();
    assertThat(store.searchText("ns", TextField.TURNS, "needle", 3)).extracting(ScoredId::id)
        .containsExactly(big.id());
  }

  @Test
  void concurrentAppendersThatLetTheStoreChooseIndicesLoseNothing() throws Exception {
    int writers = 6;
    int each = 40;
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      String name = "w" + w;
      Thread t = new Thread(() -> {
        try {
          for (int i = 0; i < each; i++) {
            String text = name + " says " + i;
            List<RawTurn> added = store.appendTurns("ns", "s", next -> List.of(turn("ns", "s", next, text)));
            if (added.size() != 1) {
              errors.add(new AssertionError("not stored: " + text));
            }
          }
        } catch (Throwable e) {
          errors.add(e);
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join(60_000);
    }
    assertThat(errors).isEmpty();
    List<RawTurn> all = store.turns("ns", "s");
    assertThat(all).hasSize(writers * each);
    assertThat(all).extracting(RawTurn::index).containsExactlyElementsOf(
        java.util.stream.IntStream.range(0, writers * each).boxed().toList());
    assertThat(all).extracting(RawTurn::text).doesNotHaveDuplicates();
    // an index the admission chose that another writer has taken meanwhile cannot happen; an
    // explicit index already stored is still skipped, as appendTurns(list) does
    assertThat(store.appendTurns("ns", "s", next -> List.of(turn("ns", "s", 0, "again")))).isEmpty();
  }
}
