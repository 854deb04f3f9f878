package dev.lychee.core.conformance;

import static dev.lychee.core.conformance.StoreFixtures.T0;
import static dev.lychee.core.conformance.StoreFixtures.day;
import static dev.lychee.core.conformance.StoreFixtures.node;
import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.segment;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lychee.api.CloseReason;
import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.Forgotten;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.SourceRole;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.vector.ExactVectorIndex;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of the {@link RecordStore} contract. Every implementation extends it and
 * supplies {@link #newStore()}; durable stores also override {@link #supportsReopen()} and
 * {@link #reopen(RecordStore)} so that the suite checks that a reopened store keeps everything.
 *
 * <p>Random data comes from fixed seeds so that a failure reproduces.
 */
public abstract class BaseRecordStoreTestCase {

  /** A fresh, empty store. */
  protected abstract RecordStore newStore();

  /** True when {@link #reopen} is implemented. */
  protected boolean supportsReopen() {
    return false;
  }

  /**
   * Closes {@code store} and opens a new store over the same files.
   *
   * @throws UnsupportedOperationException unless {@link #supportsReopen()}
   */
  protected RecordStore reopen(RecordStore store) {
    throw new UnsupportedOperationException("this store cannot be reopened");
  }

  /**
   * The vector index that lives beside the store, used to check that {@link Forgotten} lists let a
   * caller drop exactly the right vectors. Defaults to a fresh {@link ExactVectorIndex}.
   */
  protected VectorIndex companionIndex(RecordStore store) {
    return new ExactVectorIndex();
  }

  protected RecordStore store;

  @BeforeEach
  void openStore() {
    store = newStore();
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  private void reopenIfSupported() {
    if (supportsReopen()) {
      store = reopen(store);
    }
  }

  // ------------------------------------------------------------------ turns

  @Test
  void turnsRoundTripWithEveryField() {
    List<RawTurn> in = List.of(
        new RawTurn("ns", TurnRef.of("s1", 0), Role.USER, "Caroline", "I went to a support group.", T0),
        new RawTurn("ns", TurnRef.of("s1", 1), Role.ASSISTANT, null, "That sounds good!", null),
        new RawTurn("ns", TurnRef.of("s1", 2), Role.SYSTEM, "Ops", "Caroline: é ü 漢字 🍒", T0.plusHours(1)));
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

  // ------------------------------------------------------------------ segments

  @Test
  void segmentsKeepStatesAndOrder() {
    List<RawTurn> s2 = new ArrayList<>();
    List<RawTurn> s1 = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      s1.add(turn("ns", "s1", i, "one " + i));
      s2.add(turn("ns", "s2", i, "two " + i));
    }
    store.appendTurns("ns", "s2", s2);
    store.appendTurns("ns", "s1", s1);
    Segment a = segment(s2.subList(4, 12), CloseReason.SESSION_FLUSH);
    Segment b = segment(s2.subList(0, 4), CloseReason.SEMANTIC_BOUNDARY);
    Segment c = segment(s1.subList(0, 6), CloseReason.TARGET_LENGTH);
    store.putSegment(a, SegmentState.PENDING);
    store.putSegment(b, SegmentState.ENCODED);
    store.putSegment(c, SegmentState.PENDING);
    assertThat(store.segmentedThrough("ns", "s2")).isEqualTo(11);
    assertThat(store.segmentedThrough("ns", "s1")).isEqualTo(5);
    assertThat(store.segmentedThrough("ns", "s3")).isEqualTo(-1);
    assertThat(store.segmentedThrough("other", "s1")).isEqualTo(-1);

    store.setSegmentState("ns", a.id(), SegmentState.FAILED, "model timed out");
    reopenIfSupported();
    List<StoredSegment> all = store.segments("ns");
    assertThat(all).extracting(x -> x.segment().id()).containsExactly(c.id(), b.id(), a.id());
    assertThat(all.get(0)).isEqualTo(new StoredSegment(c, SegmentState.PENDING, null));
    assertThat(all.get(1)).isEqualTo(new StoredSegment(b, SegmentState.ENCODED, null));
    assertThat(all.get(2)).isEqualTo(new StoredSegment(a, SegmentState.FAILED, "model timed out"));
    assertThat(all.get(1).segment().score()).isEqualTo(1.5);
    assertThat(all.get(0).segment().score()).isNaN();

    store.setSegmentState("ns", a.id(), SegmentState.PENDING, null);
    assertThat(store.segments("ns").get(2).state()).isEqualTo(SegmentState.PENDING);
    assertThat(store.segments("ns").get(2).error()).isNull();

    // putting the same id again replaces it
    store.putSegment(a, SegmentState.ENCODED);
    assertThat(store.segments("ns")).hasSize(3);
    assertThat(store.segments("ns").get(2).state()).isEqualTo(SegmentState.ENCODED);

    assertThatThrownBy(() -> store.setSegmentState("ns", "s9:0-1", SegmentState.ENCODED, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.setSegmentState("other", a.id(), SegmentState.ENCODED, null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void commitEncodingWritesRecordsNodesAndStateTogether() {
    List<RawTurn> turns = StoreFixtures.turns("ns", "s", 0, 6, new Random(1), "m");
    store.appendTurns("ns", "s", turns);
    Segment seg = segment(turns, CloseReason.SESSION_FLUSH);
    store.putSegment(seg, SegmentState.PENDING);
    MemoryRecord r1 = record("ns", "Caroline went to a support group.", TurnRef.of("s", 0));
    MemoryRecord r2 = record("ns", "Melanie paints sunsets.", TurnRef.of("s", 3));
    EvidenceNode n1 = node("ns", NodeKind.ENTITY, "caroline", "Entity: Caroline", List.of(r1.id()), "s", null);
    store.commitEncoding("ns", seg.id(), List.of(r1, r2), List.of(n1));
    reopenIfSupported();
    assertThat(store.segments("ns")).singleElement()
        .satisfies(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
    assertThat(store.records("ns")).containsExactly(r1, r2);
    assertThat(store.node("ns", n1.id())).contains(n1);
    assertThat(store.searchText("ns", TextField.RECORDS, "sunsets", 3)).extracting(ScoredId::id)
        .containsExactly(r2.id());
  }

  @Test
  void commitEncodingOfAnUnknownSegmentWritesNothing() {
    MemoryRecord r = record("ns", "Nothing should land.", TurnRef.of("s", 0));
    assertThatThrownBy(() -> store.commitEncoding("ns", "s:0-3", List.of(r), List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.records("ns")).isEmpty();
    assertThat(store.searchText("ns", TextField.RECORDS, "land", 3)).isEmpty();
  }

  @Test
  void commitEncodingWithNothingExtractedStillMarksEncoded() {
    List<RawTurn> turns = StoreFixtures.turns("ns", "s", 0, 2, new Random(2), "m");
    store.appendTurns("ns", "s", turns);
    Segment seg = segment(turns, CloseReason.SESSION_FLUSH);
    store.putSegment(seg, SegmentState.FAILED);
    store.setSegmentState("ns", seg.id(), SegmentState.FAILED, "boom");
    store.commitEncoding("ns", seg.id(), List.of(), List.of());
    assertThat(store.segments("ns").get(0)).isEqualTo(new StoredSegment(seg, SegmentState.ENCODED, null));
  }

  // ------------------------------------------------------------------ records

  @Test
  void recordsRoundTripWithEveryField() {
    MemoryRecord full = new MemoryRecord(null, "ns", MemoryType.EVENT,
        "Caroline attended an LGBTQ support group on 7 May 2023.", List.of("Caroline", "LGBTQ support group"),
        List.of("support", "community"),
        new TemporalScope("2023-05-07", "2023-05-07", "", DateRange.day(LocalDate.of(2023, 5, 7)), false),
        List.of(TurnRef.of("s1", 4), TurnRef.of("s1", 2)), "s1", "s1:0-9", SourceRole.USER, T0);
    MemoryRecord bare = new MemoryRecord(null, "ns", MemoryType.PREFERENCE, "Likes tea \"strong\"; 100% 'really'",
        List.of(), List.of(), new TemporalScope("next week-ish", "", "", null, true),
        List.of(TurnRef.of("s1", 1)), "s1", null, null, null);
    MemoryRecord openSpan = new MemoryRecord(null, "ns", MemoryType.CONSTRAINT, "Cannot eat nuts since 2020.",
        List.of("nuts"), List.of(), new TemporalScope("", "2020", "", new DateRange(LocalDate.of(2020, 1, 1), null), false),
        List.of(TurnRef.of("s2", 0)), "s2", "s2:0-0", SourceRole.BOTH, null);
    store.putRecords("ns", List.of(full, bare, openSpan));
    reopenIfSupported();
    assertThat(store.record("ns", full.id())).contains(full);
    assertThat(store.records("ns")).containsExactly(full, bare, openSpan);
    assertThat(store.records("ns", List.of(openSpan.id(), "unknown", full.id(), openSpan.id())))
        .containsExactly(openSpan, full);
    assertThat(store.recordsByType("ns", MemoryType.PREFERENCE)).containsExactly(bare);
    assertThat(store.recordsByType("ns", MemoryType.PROCEDURE)).isEmpty();
    assertThat(store.record("ns", "unknown")).isEmpty();
    assertThat(store.record("other", full.id())).isEmpty();
  }

  @Test
  void puttingAStoredRecordMergesProvenanceAndKeepsItsPlace() {
    MemoryRecord a = record("ns", "Alpha fact.", TurnRef.of("s1", 1));
    MemoryRecord b = record("ns", "Beta fact.", TurnRef.of("s1", 2));
    store.putRecords("ns", List.of(a, b));
    MemoryRecord again = record("ns", "Alpha fact.", MemoryType.FACT, TemporalScope.NONE,
        List.of("Alpha"), List.of("greek"), TurnRef.of("s2", 7));
    store.putRecords("ns", List.of(again));
    reopenIfSupported();
    MemoryRecord merged = a.mergedWith(again);
    assertThat(store.records("ns")).containsExactly(merged, b);
    assertThat(merged.evidence()).containsExactly(TurnRef.of("s1", 1), TurnRef.of("s2", 7));
    assertThat(store.searchText("ns", TextField.RECORDS, "greek", 3)).extracting(ScoredId::id)
        .containsExactly(a.id());
    // a merge inside one call behaves the same
    MemoryRecord c1 = record("ns", "Gamma.", TurnRef.of("s1", 3));
    MemoryRecord c2 = record("ns", "Gamma.", TurnRef.of("s1", 4));
    store.putRecords("ns", List.of(c1, c2));
    assertThat(store.record("ns", c1.id())).contains(c1.mergedWith(c2));
  }

  @Test
  void recordsInRangeUseSpanOverlap() {
    LocalDate may7 = LocalDate.of(2023, 5, 7);
    MemoryRecord d7 = record("ns", "On May 7.", MemoryType.EVENT, day(may7), List.of(), List.of(), TurnRef.of("s", 0));
    MemoryRecord june = record("ns", "In June.", MemoryType.EVENT,
        new TemporalScope("June 2023", "", "", DateRange.monthOf(LocalDate.of(2023, 6, 1)), false),
        List.of(), List.of(), TurnRef.of("s", 1));
    MemoryRecord since = record("ns", "Since 2024.", MemoryType.FACT,
        new TemporalScope("", "2024-01-01", "", new DateRange(LocalDate.of(2024, 1, 1), null), false),
        List.of(), List.of(), TurnRef.of("s", 2));
    MemoryRecord none = record("ns", "Timeless.", TurnRef.of("s", 3));
    store.putRecords("ns", List.of(d7, june, since, none));
    reopenIfSupported();
    assertThat(store.recordsInRange("ns", DateRange.day(may7))).containsExactly(d7);
    assertThat(store.recordsInRange("ns", new DateRange(LocalDate.of(2023, 5, 8), LocalDate.of(2023, 6, 1))))
        .containsExactly(june);
    assertThat(store.recordsInRange("ns", new DateRange(LocalDate.of(2023, 6, 30), null)))
        .containsExactly(june, since);
    assertThat(store.recordsInRange("ns", new DateRange(null, LocalDate.of(2023, 5, 6)))).isEmpty();
    assertThat(store.recordsInRange("ns", new DateRange(null, LocalDate.of(2030, 1, 1))))
        .containsExactly(d7, june, since);
    assertThat(store.recordsInRange("ns", DateRange.day(LocalDate.of(2099, 1, 1)))).containsExactly(since);
    assertThat(store.recordsInRange("other", DateRange.day(may7))).isEmpty();
  }

  @Test
  void recordsInRangeFindYearsOutsideFourDigits() {
    LocalDate ancient = LocalDate.of(-50, 3, 15);
    LocalDate far = LocalDate.of(12_024, 1, 2);
    MemoryRecord old = record("ns", "Long ago.", MemoryType.EVENT, day(ancient), List.of(), List.of(), TurnRef.of("s", 0));
    MemoryRecord future = record("ns", "Far ahead.", MemoryType.EVENT, day(far), List.of(), List.of(), TurnRef.of("s", 1));
    MemoryRecord now = record("ns", "This year.", MemoryType.EVENT, day(LocalDate.of(2024, 5, 1)), List.of(), List.of(),
        TurnRef.of("s", 2));
    store.putRecords("ns", List.of(old, future, now));
    reopenIfSupported();
    assertThat(store.recordsInRange("ns", DateRange.day(ancient))).containsExactly(old);
    assertThat(store.recordsInRange("ns", DateRange.day(far))).containsExactly(future);
    assertThat(store.recordsInRange("ns", new DateRange(LocalDate.of(1, 1, 1), LocalDate.of(9999, 12, 31))))
        .containsExactly(now);
    assertThat(store.recordsInRange("ns", new DateRange(null, LocalDate.of(0, 1, 1)))).containsExactly(old);
    assertThat(store.recordsInRange("ns", new DateRange(LocalDate.of(10_000, 1, 1), null))).containsExactly(future);
  }

  // ------------------------------------------------------------------ nodes

  @Test
  void nodesRoundTripMergeAndOrderByKey() {
    DateRange may = DateRange.day(LocalDate.of(2023, 5, 7));
    EvidenceNode zed = node("ns", NodeKind.ENTITY, "zed", "Entity: Zed", List.of("r1"), "s1", null);
    EvidenceNode amy = node("ns", NodeKind.ENTITY, "amy", "Entity: Amy", List.of("r2"), "s1", may);
    EvidenceNode tag = node("ns", NodeKind.TAG, "music", "Tag: music", List.of("r1", "r2"), "s1", null);
    EvidenceNode dayNode = node("ns", NodeKind.TEMPORAL, "day:2023-05-07", "Time: 2023-05-07", List.of("r2"), "s1", may);
    store.putNodes("ns", List.of(zed, amy, tag, dayNode));
    EvidenceNode amyLater = new EvidenceNode(null, "ns", NodeKind.ENTITY, "amy", "", "Entity: Amy\nRecord: new",
        List.of("r3", "r2"), List.of("s2"), List.of("Amy"), List.of("travel"),
        DateRange.day(LocalDate.of(2023, 8, 1)), List.of(new TurnRange("s2", 4, 9)));
    store.putNodes("ns", List.of(amyLater));
    reopenIfSupported();
    EvidenceNode merged = amy.mergedWith(amyLater);
    assertThat(store.node("ns", amy.id())).contains(merged);
    assertThat(merged.recordIds()).containsExactly("r2", "r3");
    assertThat(merged.span()).isEqualTo(new DateRange(LocalDate.of(2023, 5, 7), LocalDate.of(2023, 8, 1)));
    assertThat(store.nodes("ns", NodeKind.ENTITY)).containsExactly(merged, zed);
    assertThat(store.nodes("ns", NodeKind.TAG)).containsExactly(tag);
    assertThat(store.nodes("ns", NodeKind.EVENT_FRAME)).isEmpty();
    assertThat(store.nodes("ns", List.of(dayNode.id(), "nope", zed.id()))).containsExactly(dayNode, zed);
    assertThat(store.node("other", amy.id())).isEmpty();
  }

  @Test
  void nodeSearchTextIsCappedAfterMerges() {
    EvidenceNode n = node("ns", NodeKind.TAG, "long", "x".repeat(5000), List.of("r1"), "s", null);
    store.putNodes("ns", List.of(n));
    EvidenceNode m = node("ns", NodeKind.TAG, "long", "y".repeat(5000), List.of("r2"), "s", null);
    store.putNodes("ns", List.of(m));
    String text = store.node("ns", n.id()).orElseThrow().searchText();
    assertThat(text).hasSize(EvidenceNode.MAX_SEARCH_TEXT_CHARS).endsWith("y".repeat(5000));
  }

  // ------------------------------------------------------------------ lexical search

  @Test
  void lexicalSearchRanksTurnsAndRecords() {
    store.appendTurns("ns", "s", List.of(
        turn("ns", "s", 0, "We talked about the weather today."),
        turn("ns", "s", 1, "Caroline went to the LGBTQ support group yesterday, a support group she loves."),
        turn("ns", "s", 2, "The support beam of the bridge is painted red."),
        turn("ns", "s", 3, "Lunch was pasta.")));
    List<ScoredId> hits = store.searchText("ns", TextField.TURNS, "support group", 10);
    assertThat(hits).extracting(ScoredId::id).containsExactly("episode:s:1", "episode:s:2");
    assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score()).isPositive();
    assertThat(store.searchText("ns", TextField.TURNS, "SUPPORT", 1)).hasSize(1);
    // speaker prefix is part of the searchable content
    assertThat(store.searchText("ns", TextField.TURNS, "caroline", 10)).extracting(ScoredId::id)
        .contains("episode:s:0", "episode:s:2");

    MemoryRecord pref = record("ns", "Melanie likes pottery.", MemoryType.PREFERENCE, TemporalScope.NONE,
        List.of("Melanie"), List.of("hobby"), TurnRef.of("s", 3));
    MemoryRecord fact = record("ns", "The bridge is red.", MemoryType.FACT, TemporalScope.NONE,
        List.of("bridge"), List.of("color"), TurnRef.of("s", 2));
    store.putRecords("ns", List.of(pref, fact));
    assertThat(store.searchText("ns", TextField.RECORDS, "pottery", 5)).extracting(ScoredId::id).containsExactly(pref.id());
    assertThat(store.searchText("ns", TextField.RECORDS, "hobby", 5)).extracting(ScoredId::id).containsExactly(pref.id());
    assertThat(store.searchText("ns", TextField.RECORDS, "preference", 5)).extracting(ScoredId::id).containsExactly(pref.id());
    assertThat(store.searchText("ns", TextField.RECORDS, "nothing matches zzz", 5)).isEmpty();
    assertThat(store.searchText("ns", TextField.RECORDS, "red melanie", 1)).hasSize(1);
  }

  @Test
  void lexicalSearchResultsAreSortedAndCapped() {
    Random rnd = new Random(11);
    store.appendTurns("ns", "s", StoreFixtures.turns("ns", "s", 0, 60, rnd, "common"));
    List<ScoredId> hits = store.searchText("ns", TextField.TURNS, "apple river guitar common", 7);
    assertThat(hits).hasSize(7);
    for (int i = 1; i < hits.size(); i++) {
      assertThat(hits.get(i - 1).score()).isGreaterThanOrEqualTo(hits.get(i).score());
    }
    assertThat(hits).extracting(ScoredId::id).doesNotHaveDuplicates();
  }

  /** Query strings full of search-engine syntax, quotes and scripts. */
  protected static final List<String> HOSTILE = List.of("", " ", "\"", "\"\"", "'", "*", "**", "a*", "*a",
      "AND", "OR", "NOT", "NEAR", "NEAR(a b)", "a AND b", "a OR", "OR b", "(", ")", "((a)", "a)", ":", "a:b",
      "col:value", "^", "-a", "+a", "a -b", "{a}", "[a]", "a\"b", "\"unbalanced", "caroline's", "l'été",
      "support* group\"", "\\", "\\\"", "%", "_", ";", "--", "/* */", "a;DROP TABLE turns;--",
      "漢字", "가나다", "Привет мир", "مرحبا", "😀🍒", "\u0000", "\n\t", "NEAR/3", "a^2", "1e10", "0",
      "x".repeat(10_000), "a OR ".repeat(500), "\"" + "b ".repeat(300));

  @Test
  void hostileLexicalQueriesNeverThrow() {
    store.appendTurns("ns", "s", List.of(turn("ns", "s", 0, "Caroline's l'été AND NEAR support group 漢字 Привет"),
        turn("ns", "s", 1, "plain text here")));
    store.putRecords("ns", List.of(record("ns", "Caroline's AND OR NOT group: (yes) \"quoted\" 漢字.", TurnRef.of("s", 0))));
    store.appendTurns("other", "s", List.of(turn("other", "s", 0, "AND OR NOT NEAR caroline group 漢字 привет")));
    Set<String> mine = Set.of("episode:s:0", "episode:s:1");
    String myRecord = store.records("ns").get(0).id();
    for (String q : HOSTILE) {
      for (TextField f : TextField.values()) {
        List<ScoredId> hits = assertDoesNotThrow(() -> store.searchText("ns", f, q, 5), "query [" + q + "]");
        assertThat(hits).as("query [%s]", q).allSatisfy(h ->
            assertThat(f == TextField.TURNS ? mine.contains(h.id()) : h.id().equals(myRecord)).isTrue());
      }
    }
    assertThat(store.searchText("ns", TextField.TURNS, "", 5)).isEmpty();
    assertThat(store.searchText("ns", TextField.TURNS, "\"*()", 5)).isEmpty();
    assertThat(store.searchText("ns", TextField.TURNS, "l'été", 5)).extracting(ScoredId::id).contains("episode:s:0");
    assertThat(store.searchText("ns", TextField.TURNS, "Привет", 5)).extracting(ScoredId::id).contains("episode:s:0");
    assertThat(store.searchText("ns", TextField.RECORDS, "\"quoted\"", 5)).extracting(ScoredId::id).containsExactly(myRecord);
    assertThat(store.searchText("nobody", TextField.TURNS, "caroline", 5)).isEmpty();
  }

  // ------------------------------------------------------------------ isolation

  @Test
  void randomisedNamespaceIsolation() {
    Random rnd = new Random(20240917L);
    int namespaces = 10;
    Map<String, Set<String>> turnIds = new HashMap<>();
    Map<String, Set<String>> recordIds = new HashMap<>();
    Map<String, Set<String>> nodeIds = new HashMap<>();
    VectorIndex vectors = companionIndex(store);
    String shared = "Everyone shares this exact sentence.";
    for (int n = 0; n < namespaces; n++) {
      String ns = "tenant-" + n;
      String marker = "mark" + n + "x";
      Set<String> tIds = new HashSet<>();
      Set<String> rIds = new HashSet<>();
      Set<String> nIds = new HashSet<>();
      for (String session : List.of("s1", "s2", "s3")) {
        int count = 1 + rnd.nextInt(15);
        List<RawTurn> turns = StoreFixtures.turns(ns, session, 0, count, rnd, marker);
        store.appendTurns(ns, session, turns);
        turns.forEach(t -> tIds.add(t.id()));
        Segment seg = segment(turns, CloseReason.SESSION_FLUSH);
        store.putSegment(seg, SegmentState.PENDING);
        List<MemoryRecord> recs = new ArrayList<>();
        for (int r = 0; r < 1 + rnd.nextInt(5); r++) {
          recs.add(record(ns, StoreFixtures.sentence(rnd, 5) + " " + marker + " " + session + r + ".",
              MemoryType.values()[rnd.nextInt(MemoryType.values().length)],
              day(LocalDate.of(2023, 1, 1).plusDays(rnd.nextInt(60))), List.of("E" + rnd.nextInt(4)),
              List.of("tag" + rnd.nextInt(4)), TurnRef.of(session, rnd.nextInt(count))));
        }
        recs.add(record(ns, shared, TurnRef.of(session, 0)));
        List<EvidenceNode> nodes = new ArrayList<>();
        for (MemoryRecord r : recs) {
          nodes.add(node(ns, NodeKind.ENTITY, r.entities().isEmpty() ? "none" : r.entities().get(0).toLowerCase(),
              "Entity", List.of(r.id()), session, null));
        }
        store.commitEncoding(ns, seg.id(), recs, nodes);
        recs.forEach(r -> rIds.add(r.id()));
        nodes.forEach(x -> nIds.add(x.id()));
      }
      turnIds.put(ns, tIds);
      recordIds.put(ns, rIds);
      nodeIds.put(ns, nIds);
      Map<String, float[]> vs = new LinkedHashMap<>();
      tIds.forEach(id -> vs.put(id, unit(rnd, 8)));
      vectors.upsert(ns, VectorIndex.TURNS, vs);
    }
    reopenIfSupported();
    int victim = 5;
    int victimSession = 7;
    Forgotten whole = store.forget("tenant-" + victim);
    vectors.remove("tenant-" + victim, VectorIndex.TURNS, whole.turnIds());
    assertThat(Set.copyOf(whole.turnIds())).isEqualTo(turnIds.get("tenant-" + victim));
    Forgotten part = store.forget("tenant-" + victimSession, "s2");
    vectors.remove("tenant-" + victimSession, VectorIndex.TURNS, part.turnIds());
    turnIds.put("tenant-" + victim, Set.of());
    recordIds.put("tenant-" + victim, Set.of());
    nodeIds.put("tenant-" + victim, Set.of());
    turnIds.get("tenant-" + victimSession).removeIf(id -> id.startsWith("episode:s2:"));

    for (int n = 0; n < namespaces; n++) {
      String ns = "tenant-" + n;
      Set<String> tIds = turnIds.get(ns);
      assertThat(store.countTurns(ns)).isEqualTo(tIds.size());
      Set<String> listed = store.sessions(ns).stream()
          .flatMap(s -> store.turns(ns, s).stream()).map(RawTurn::id).collect(Collectors.toSet());
      assertThat(listed).isEqualTo(tIds);
      assertThat(store.turns(ns, "s1")).allSatisfy(t -> assertThat(t.namespace()).isEqualTo(ns));
      assertThat(store.records(ns)).allSatisfy(r -> {
        assertThat(r.namespace()).isEqualTo(ns);
        assertThat(recordIds.get(ns)).contains(r.id());
      });
      if (n != victim && n != victimSession) {
        assertThat(store.records(ns)).hasSize(recordIds.get(ns).size());
        MemoryRecord sharedRec = store.record(ns, MemoryRecord.idFor(shared)).orElseThrow();
        assertThat(sharedRec.namespace()).isEqualTo(ns);
        assertThat(sharedRec.evidence()).hasSize(3);
      }
      for (NodeKind k : NodeKind.values()) {
        assertThat(store.nodes(ns, k)).allSatisfy(x -> {
          assertThat(x.namespace()).isEqualTo(ns);
          assertThat(nodeIds.get(ns)).contains(x.id());
          assertThat(recordIds.get(ns)).containsAll(x.recordIds());
        });
      }
      assertThat(store.segments(ns)).allSatisfy(s -> assertThat(s.segment().namespace()).isEqualTo(ns));
      assertThat(store.recordsInRange(ns, new DateRange(LocalDate.of(2000, 1, 1), null)))
          .allSatisfy(r -> assertThat(r.namespace()).isEqualTo(ns));
      for (int other = 0; other < namespaces; other++) {
        String marker = "mark" + other + "x";
        List<ScoredId> turnsHits = store.searchText(ns, TextField.TURNS, marker + " apple river", 50);
        assertThat(turnsHits).allSatisfy(h -> assertThat(tIds).contains(h.id()));
        List<ScoredId> recordHits = store.searchText(ns, TextField.RECORDS, marker, 50);
        if (other != n || n == victim) {
          assertThat(recordHits).isEmpty();
        } else {
          assertThat(recordHits).isNotEmpty();
        }
        if (other != n) {
          assertThat(store.searchText(ns, TextField.TURNS, marker, 50)).isEmpty();
        }
      }
      List<ScoredId> nearest = vectors.search(ns, VectorIndex.TURNS, unit(rnd, 8), 1000, null);
      assertThat(nearest).extracting(ScoredId::id).containsExactlyInAnyOrderElementsOf(tIds);
    }
    assertThat(store.namespaces()).doesNotContain("tenant-" + victim).hasSize(namespaces - 1);
  }

  // ------------------------------------------------------------------ forgetting

  @Test
  void forgetNamespaceRemovesEverythingAndOnlyThat() {
    fillSmall("a");
    fillSmall("b");
    Forgotten f = store.forget("a");
    assertThat(f.turnIds()).hasSize(6);
    assertThat(f.recordIds()).hasSize(3);
    assertThat(f.nodeIds()).hasSize(2);
    reopenIfSupported();
    assertThat(store.countTurns("a")).isZero();
    assertThat(store.sessions("a")).isEmpty();
    assertThat(store.segments("a")).isEmpty();
    assertThat(store.records("a")).isEmpty();
    assertThat(store.nodes("a", NodeKind.ENTITY)).isEmpty();
    assertThat(store.searchText("a", TextField.TURNS, "lychee", 10)).isEmpty();
    assertThat(store.searchText("a", TextField.RECORDS, "lychee", 10)).isEmpty();
    assertThat(store.namespaces()).containsExactly("b");
    assertThat(store.countTurns("b")).isEqualTo(6);
    assertThat(store.records("b")).hasSize(3);
    assertThat(store.searchText("b", TextField.TURNS, "lychee", 10)).hasSize(6);
    assertThat(store.forget("never-used")).isEqualTo(new Forgotten(List.of(), List.of(), List.of()));
    // the namespace can be used again afterwards
    store.appendTurns("a", "s1", List.of(turn("a", "s1", 0, "back again")));
    assertThat(store.turns("a", "s1")).hasSize(1);
  }

  @Test
  void forgetSessionCascadesToRecordsAndNodes() {
    fillSmall("a");
    fillSmall("b");
    VectorIndex vectors = companionIndex(store);
    Map<String, float[]> turnVectors = new HashMap<>();
    Map<String, float[]> recordVectors = new HashMap<>();
    Map<String, float[]> nodeVectors = new HashMap<>();
    Random rnd = new Random(5);
    for (String s : store.sessions("a")) {
      store.turns("a", s).forEach(t -> turnVectors.put(t.id(), unit(rnd, 4)));
    }
    store.records("a").forEach(r -> recordVectors.put(r.id(), unit(rnd, 4)));
    store.nodes("a", NodeKind.ENTITY).forEach(n -> nodeVectors.put(n.id(), unit(rnd, 4)));
    vectors.upsert("a", VectorIndex.TURNS, turnVectors);
    vectors.upsert("a", VectorIndex.RECORDS, recordVectors);
    vectors.upsert("a", VectorIndex.nodes(NodeKind.ENTITY), nodeVectors);

    MemoryRecord onlyS1 = record("a", "Lychee only in s1.", TurnRef.of("s1", 0));
    MemoryRecord both = record("a", "Lychee in both sessions.", TurnRef.of("s1", 1), TurnRef.of("s2", 1));
    MemoryRecord onlyS2 = record("a", "Lychee only in s2.", TurnRef.of("s2", 2));
    Forgotten f = store.forget("a", "s1");
    reopenIfSupported();
    vectors.remove("a", VectorIndex.TURNS, f.turnIds());
    vectors.remove("a", VectorIndex.RECORDS, f.recordIds());
    vectors.remove("a", VectorIndex.nodes(NodeKind.ENTITY), f.nodeIds());

    assertThat(f.turnIds()).containsExactlyInAnyOrder("episode:s1:0", "episode:s1:1", "episode:s1:2");
    assertThat(f.recordIds()).containsExactly(onlyS1.id());
    EvidenceNode s1Node = node("a", NodeKind.ENTITY, "only-s1", "", List.of(), "s1", null);
    EvidenceNode mixedNode = node("a", NodeKind.ENTITY, "mixed", "", List.of(), "s1", null);
    assertThat(f.nodeIds()).containsExactly(s1Node.id());

    assertThat(store.sessions("a")).containsExactly("s2");
    assertThat(store.turns("a", "s1")).isEmpty();
    assertThat(store.countTurns("a")).isEqualTo(3);
    assertThat(store.segments("a")).extracting(s -> s.segment().session()).containsOnly("s2");
    assertThat(store.segmentedThrough("a", "s1")).isEqualTo(-1);
    assertThat(store.records("a")).extracting(MemoryRecord::id).containsExactly(both.id(), onlyS2.id());
    MemoryRecord pruned = store.record("a", both.id()).orElseThrow();
    assertThat(pruned.evidence()).containsExactly(TurnRef.of("s2", 1));
    assertThat(pruned.session()).isEqualTo("s2");
    EvidenceNode mixed = store.node("a", mixedNode.id()).orElseThrow();
    assertThat(mixed.recordIds()).containsExactly(both.id(), onlyS2.id());
    assertThat(mixed.sessions()).doesNotContain("s1");
    assertThat(mixed.turnRanges()).allSatisfy(r -> assertThat(r.session()).isNotEqualTo("s1"));
    assertThat(store.searchText("a", TextField.TURNS, "lychee", 10)).extracting(ScoredId::id)
        .allSatisfy(id -> assertThat(id).startsWith("episode:s2:")).hasSize(3);
    assertThat(store.searchText("a", TextField.RECORDS, "s1", 10)).isEmpty();

    // what forget reported is exactly what a caller must drop from the vector index
    assertThat(vectors.size("a", VectorIndex.TURNS)).isEqualTo(3);
    assertThat(vectors.size("a", VectorIndex.RECORDS)).isEqualTo(2);
    assertThat(vectors.size("a", VectorIndex.nodes(NodeKind.ENTITY))).isEqualTo(1);
    // namespace b untouched
    assertThat(store.countTurns("b")).isEqualTo(6);
    assertThat(store.records("b")).hasSize(3);
    assertThat(store.forget("a", "never")).isEqualTo(new Forgotten(List.of(), List.of(), List.of()));
  }

  /** Two sessions of three turns, three records (one per session and one across), two nodes. */
  private void fillSmall(String ns) {
    for (String s : List.of("s1", "s2")) {
      List<RawTurn> turns = List.of(turn(ns, s, 0, "lychee zero " + s), turn(ns, s, 1, "lychee one " + s),
          turn(ns, s, 2, "lychee two " + s));
      store.appendTurns(ns, s, turns);
      store.putSegment(segment(turns, CloseReason.SESSION_FLUSH), SegmentState.PENDING);
    }
    MemoryRecord onlyS1 = record(ns, "Lychee only in s1.", TurnRef.of("s1", 0));
    MemoryRecord both = record(ns, "Lychee in both sessions.", TurnRef.of("s1", 1), TurnRef.of("s2", 1));
    MemoryRecord onlyS2 = record(ns, "Lychee only in s2.", TurnRef.of("s2", 2));
    store.putRecords(ns, List.of(onlyS1, both, onlyS2));
    EvidenceNode s1Node = new EvidenceNode(null, ns, NodeKind.ENTITY, "only-s1", "", "", List.of(onlyS1.id()),
        List.of("s1"), List.of(), List.of(), null, List.of(new TurnRange("s1", 0, 0)));
    EvidenceNode mixed = new EvidenceNode(null, ns, NodeKind.ENTITY, "mixed", "", "",
        List.of(onlyS1.id(), both.id(), onlyS2.id()), List.of("s1", "s2"), List.of(), List.of(), null,
        List.of(new TurnRange("s1", 0, 1), new TurnRange("s2", 1, 2)));
    store.putNodes(ns, List.of(s1Node, mixed));
  }

  // ------------------------------------------------------------------ reopen

  @Test
  void reopenKeepsEverything() {
    assumeTrue(supportsReopen(), "store is not durable");
    fillSmall("a");
    List<RawTurn> turns = store.turns("a", "s1");
    List<MemoryRecord> records = store.records("a");
    List<EvidenceNode> nodes = store.nodes("a", NodeKind.ENTITY);
    List<StoredSegment> segments = store.segments("a");
    List<ScoredId> hits = store.searchText("a", TextField.TURNS, "lychee two", 10);
    store = reopen(store);
    assertThat(store.turns("a", "s1")).isEqualTo(turns);
    assertThat(store.records("a")).isEqualTo(records);
    assertThat(store.nodes("a", NodeKind.ENTITY)).isEqualTo(nodes);
    assertThat(store.segments("a")).isEqualTo(segments);
    assertThat(store.searchText("a", TextField.TURNS, "lychee two", 10)).extracting(ScoredId::id)
        .isEqualTo(hits.stream().map(ScoredId::id).toList());
    assertThat(store.nextTurnIndex("a", "s2")).isEqualTo(3);
    // and keeps working
    assertThat(store.appendTurns("a", "s1", List.of(turn("a", "s1", 2, "dup"), turn("a", "s1", 3, "new"))))
        .extracting(RawTurn::index).containsExactly(3);
  }

  // ------------------------------------------------------------------ threads

  @Test
  void concurrentWritersAndReadersEndWithExactCounts() throws Exception {
    int writers = 8;
    int batches = 12;
    int perBatch = 4;
    AtomicBoolean done = new AtomicBoolean();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      String session = "w" + w;
      threads.add(new Thread(() -> {
        try {
          start.await();
          for (int b = 0; b < batches; b++) {
            List<RawTurn> batch = new ArrayList<>();
            for (int i = 0; i < perBatch; i++) {
              int idx = b * perBatch + i;
              batch.add(turn("ns", session, idx, "writer " + session + " turn " + idx + " lychee"));
            }
            store.appendTurns("ns", session, batch);
            // re-sending the previous batch must not duplicate anything
            store.appendTurns("ns", session, batch.subList(0, 2));
            MemoryRecord r = record("ns", "Record " + session + " " + b + " lychee.", TurnRef.of(session, b * perBatch));
            MemoryRecord shared = record("ns", "Shared lychee record.", TurnRef.of(session, b * perBatch));
            Segment seg = segment(batch, CloseReason.TARGET_LENGTH);
            store.putSegment(seg, SegmentState.PENDING);
            store.commitEncoding("ns", seg.id(), List.of(r, shared), List.of(
                node("ns", NodeKind.TAG, "lychee", "Tag: lychee", List.of(r.id()), session, null)));
          }
        } catch (Throwable t) {
          errors.add(t);
        }
      }));
    }
    for (int rd = 0; rd < 3; rd++) {
      threads.add(new Thread(() -> {
        try {
          start.await();
          while (!done.get()) {
            long c = store.countTurns("ns");
            assertThat(c).isBetween(0L, (long) writers * batches * perBatch);
            store.searchText("ns", TextField.TURNS, "lychee writer", 5);
            store.searchText("ns", TextField.RECORDS, "lychee", 5);
            for (StoredSegment s : store.segments("ns")) {
              assertThat(s.state()).isIn(SegmentState.PENDING, SegmentState.ENCODED);
            }
            store.records("ns");
            store.nodes("ns", NodeKind.TAG);
            // a pause between rounds: spinning readers would starve the writers they are meant to
            // overlap on a small machine, and the test would time the scheduler, not the store
            Thread.sleep(1);
          }
        } catch (Throwable t) {
          errors.add(t);
        }
      }));
    }
    threads.forEach(Thread::start);
    start.countDown();
    for (int i = 0; i < writers; i++) {
      threads.get(i).join(TimeUnit.MINUTES.toMillis(2));
    }
    done.set(true);
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(1));
    }
    assertThat(errors).isEmpty();
    assertThat(store.countTurns("ns")).isEqualTo((long) writers * batches * perBatch);
    assertThat(store.sessions("ns")).hasSize(writers);
    for (int w = 0; w < writers; w++) {
      assertThat(store.turns("ns", "w" + w)).hasSize(batches * perBatch);
      assertThat(store.nextTurnIndex("ns", "w" + w)).isEqualTo(batches * perBatch);
    }
    assertThat(store.segments("ns")).hasSize(writers * batches)
        .allSatisfy(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
    assertThat(store.records("ns")).hasSize(writers * batches + 1);
    assertThat(store.record("ns", MemoryRecord.idFor("Shared lychee record.")).orElseThrow().evidence())
        .hasSize(writers * batches);
    assertThat(store.nodes("ns", NodeKind.TAG)).singleElement()
        .satisfies(n -> assertThat(n.recordIds()).hasSize(writers * batches));
    assertThat(store.searchText("ns", TextField.TURNS, "lychee", 10_000)).hasSize(writers * batches * perBatch);
  }

  // ------------------------------------------------------------------ bad arguments

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

  @Test
  void badArgumentsGiveClearExceptions() {
    RawTurn t = turn("ns", "s", 0, "x");
    assertThatThrownBy(() -> store.appendTurns("", "s", List.of(t))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.appendTurns(" ", "s", List.of())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.appendTurns("ns", "  ", List.of())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.appendTurns("ns", "other", List.of(t)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("session");
    assertThatThrownBy(() -> store.appendTurns("elsewhere", "s", List.of(t)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespace");
    assertThatThrownBy(() -> store.turns("", "s")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.turns("ns", "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.sessions(" ")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.countTurns("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.records("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.forget("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.forget("ns", " ")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.nextTurnIndex("ns", "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.segmentedThrough("ns", "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.searchText("", TextField.TURNS, "x", 3)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.searchText("ns", TextField.TURNS, "x", 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.searchText("ns", TextField.RECORDS, "x", -1)).isInstanceOf(IllegalArgumentException.class);
    MemoryRecord foreign = record("elsewhere", "Foreign.", TurnRef.of("s", 0));
    assertThatThrownBy(() -> store.putRecords("ns", List.of(foreign))).isInstanceOf(IllegalArgumentException.class);
    assertThat(store.records("ns")).isEmpty();
    assertThat(store.records("elsewhere")).isEmpty();
    EvidenceNode foreignNode = node("elsewhere", NodeKind.TAG, "x", "", List.of("r"), "s", null);
    assertThatThrownBy(() -> store.putNodes("ns", List.of(foreignNode))).isInstanceOf(IllegalArgumentException.class);
    // unknown namespaces are empty, not errors
    assertThat(store.records("ghost")).isEmpty();
    assertThat(store.segments("ghost")).isEmpty();
    assertThat(store.nodes("ghost", NodeKind.TAG)).isEmpty();
    assertThat(store.countTurns("ghost")).isZero();
    assertThat(store.namespaces()).isEmpty();
  }

  @Test
  void closedStoreRefusesCalls() {
    RecordStore s = newStore();
    s.close();
    assertThatThrownBy(() -> s.countTurns("ns")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> s.appendTurns("ns", "s", List.of(turn("ns", "s", 0, "x"))))
        .isInstanceOf(IllegalStateException.class);
  }

  protected static float[] unit(Random rnd, int dim) {
    float[] v = new float[dim];
    double n = 0;
    for (int i = 0; i < dim; i++) {
      v[i] = (float) rnd.nextGaussian();
      n += v[i] * v[i];
    }
    float inv = (float) (1 / Math.sqrt(n));
    for (int i = 0; i < dim; i++) {
      v[i] *= inv;
    }
    return v;
  }
}
