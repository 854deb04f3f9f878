package dev.lychee.core.segment;

import static dev.lychee.core.segment.Fixtures.axis;
import static dev.lychee.core.segment.Fixtures.exchange;
import static dev.lychee.core.segment.Fixtures.fragment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.lychee.api.CloseReason;
import dev.lychee.api.Exchange;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.EmbeddingProfile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SemanticSegmenterTest {
  private static final EmbeddingProfile REF = EmbeddingProfile.TEXT_EMBEDDING_3_SMALL;

  private static SemanticSegmenter segmenter() {
    return segmenter(SegmentationConfig.defaults());
  }

  private static SemanticSegmenter segmenter(SegmentationConfig config) {
    return new SemanticSegmenter(Fixtures.NS, Fixtures.SESSION, config, REF);
  }

  @Test
  void similarExchangesStayTogetherUntilFlush() {
    SemanticSegmenter s = segmenter();
    for (int i = 0; i < 6; i++) {
      assertThat(s.offer(exchange(i, 30, axis(0)))).isEmpty();
    }
    List<Segment> flushed = s.flush();
    assertThat(flushed).hasSize(1);
    Segment seg = flushed.get(0);
    assertThat(seg.reason()).isEqualTo(CloseReason.SESSION_FLUSH);
    assertThat(seg.exchanges()).isEqualTo(6);
    assertThat(seg.tokens()).isEqualTo(180);
    assertThat(seg.firstIndex()).isZero();
    assertThat(seg.lastIndex()).isEqualTo(5);
    assertThat(seg.score()).isNaN();
    assertThat(seg.probability()).isNaN();
    assertThat(s.flush()).isEmpty();
  }

  @Test
  void anOrthogonalExchangeAfterACoherentRunIsASemanticBoundary() {
    SemanticSegmenter s = segmenter();
    for (int i = 0; i < 4; i++) {
      assertThat(s.offer(exchange(i, 30, axis(0)))).isEmpty();
    }
    List<Segment> closed = s.offer(exchange(4, 30, axis(1)));
    assertThat(closed).hasSize(1);
    Segment seg = closed.get(0);
    assertThat(seg.reason()).isEqualTo(CloseReason.SEMANTIC_BOUNDARY);
    assertThat(seg.lastIndex()).isEqualTo(3);
    BoundaryDecision d = s.lastDecision();
    assertThat(d.cut()).isTrue();
    assertThat(seg.score()).isEqualTo(d.score());
    assertThat(seg.probability()).isEqualTo(d.probability()).isGreaterThanOrEqualTo(0.5);
    // the new exchange opened the next segment
    assertThat(s.flush()).singleElement().satisfies(f -> assertThat(f.firstIndex()).isEqualTo(4));
  }

  @Test
  void aSegmentReachingTheTargetClosesWithTargetLength() {
    SemanticSegmenter s = segmenter();
    assertThat(s.offer(exchange(0, 400, axis(0)))).isEmpty();
    assertThat(s.offer(exchange(1, 400, axis(0)))).isEmpty();
    assertThat(s.offer(exchange(2, 400, axis(0)))).isEmpty();
    // decision at T=1200, n=3 with s=0: score 0.9·1.03 + 0.3·0.15 = 0.972 -> no cut; 1600 ≥ 1500
    List<Segment> closed = s.offer(exchange(3, 400, axis(0)));
    assertThat(closed).singleElement().satisfies(seg -> {
      assertThat(seg.reason()).isEqualTo(CloseReason.TARGET_LENGTH);
      assertThat(seg.tokens()).isEqualTo(1600);
      assertThat(seg.score()).isCloseTo(0.972, within(1e-9));
      assertThat(seg.probability()).isCloseTo(BoundarySignals.sigmoid(0.972 - 1.10), within(1e-12));
    });
    assertThat(s.flush()).isEmpty();
  }

  @Test
  void aLargeFirstExchangeClosesAtOnceWithoutADecision() {
    SemanticSegmenter s = segmenter();
    assertThat(s.offer(exchange(0, 1600, axis(0)))).singleElement().satisfies(seg -> {
      assertThat(seg.reason()).isEqualTo(CloseReason.TARGET_LENGTH);
      assertThat(seg.score()).isNaN();
      assertThat(seg.probability()).isNaN();
    });
    assertThat(s.lastDecision()).isNull();
  }

  @Test
  void passingTheHardCapClosesWithCapacityLimit() {
    SemanticSegmenter s = segmenter();
    assertThat(s.offer(exchange(0, 700, axis(0)))).isEmpty();
    assertThat(s.offer(exchange(1, 700, axis(0)))).isEmpty();
    // 1400 + 700 > 2000: close before the decision, p = 1
    List<Segment> closed = s.offer(exchange(2, 700, axis(0)));
    assertThat(closed).singleElement().satisfies(seg -> {
      assertThat(seg.reason()).isEqualTo(CloseReason.CAPACITY_LIMIT);
      assertThat(seg.exchanges()).isEqualTo(2);
      assertThat(seg.probability()).isEqualTo(1.0);
      assertThat(seg.score()).isNaN();
    });
    assertThat(s.flush()).singleElement().satisfies(seg -> assertThat(seg.firstIndex()).isEqualTo(2));
  }

  @Test
  void hardCapAndTargetCanCloseTwoSegmentsAtOnce() {
    SemanticSegmenter s = segmenter();
    s.offer(exchange(0, 1000, axis(0)));
    List<Segment> closed = s.offer(exchange(1, 1800, axis(0)));
    assertThat(closed).extracting(Segment::reason)
        .containsExactly(CloseReason.CAPACITY_LIMIT, CloseReason.TARGET_LENGTH);
  }

  @Test
  void reachingExactlyTheHardCapClosesWithCapacityLimit() {
    SemanticSegmenter s = segmenter();
    s.offer(exchange(0, 1000, axis(0)));
    // decision at T=1000, n=1, s=0: 0.405 − 0.255 = 0.15 -> no cut; 2000 tokens = the cap
    assertThat(s.offer(exchange(1, 1000, axis(0)))).singleElement().satisfies(seg -> {
      assertThat(seg.reason()).isEqualTo(CloseReason.CAPACITY_LIMIT);
      assertThat(seg.tokens()).isEqualTo(2000);
      assertThat(seg.probability()).isEqualTo(1.0);
    });
  }

  @Test
  void anExchangeLargerThanTheCapClosesAsOversized() {
    SemanticSegmenter s = segmenter();
    assertThat(s.offer(exchange(0, 2500, axis(0)))).singleElement().satisfies(seg -> {
      assertThat(seg.reason()).isEqualTo(CloseReason.OVERSIZED_EXCHANGE);
      assertThat(seg.probability()).isEqualTo(1.0);
    });
  }

  @Test
  void aFragmentClosesTheOpenSegmentAndStandsAlone() {
    SemanticSegmenter s = segmenter();
    s.offer(exchange(0, 30, axis(0)));
    s.offer(exchange(1, 30, axis(0)));
    List<Segment> closed = s.offer(fragment(2, "part one", 1999));
    assertThat(closed).hasSize(2);
    assertThat(closed).extracting(Segment::reason).containsOnly(CloseReason.OVERSIZED_TURN_FRAGMENT);
    assertThat(closed.get(0).lastIndex()).isEqualTo(1);
    assertThat(closed.get(1).exchanges()).isEqualTo(1);
    assertThat(closed.get(1).turns()).extracting(RawTurn::text).containsExactly("part one");
    // the next fragment of the same turn is taken; its re-offer is not
    assertThat(s.offer(fragment(2, "part two", 500))).singleElement()
        .satisfies(seg -> assertThat(seg.turns().get(0).text()).isEqualTo("part two"));
    assertThat(s.offer(fragment(2, "part one", 1999))).isEmpty();
    assertThat(s.offer(fragment(2, "part two", 500))).isEmpty();
    // a small last fragment on an empty segment still stands alone
    assertThat(s.offer(exchange(3, 30, axis(0)))).isEmpty();
    assertThat(s.flush()).singleElement().satisfies(seg -> assertThat(seg.firstIndex()).isEqualTo(3));
  }

  @Test
  void aFragmentAtAnIndexTakenWholeIsARepeat() {
    SemanticSegmenter s = segmenter();
    s.offer(exchange(0, 30, axis(0)));
    assertThat(s.offer(fragment(0, "late fragment", 100))).isEmpty();
  }

  @Test
  void reOffersAreIgnored() {
    SemanticSegmenter s = segmenter();
    List<Exchange> first = List.of(exchange(0, 30, axis(0)), exchange(1, 30, axis(0)), exchange(2, 30, axis(0)));
    s.offerAll(first);
    assertThat(s.offerAll(first)).isEmpty();
    // an exchange that starts at the last taken turn is a repeat even if it reaches further
    RawTurn t2 = Fixtures.turn(2, Role.USER, "turn 2");
    RawTurn t3 = Fixtures.turn(3, Role.ASSISTANT, "reply");
    assertThat(s.offer(new Exchange(Fixtures.NS, Fixtures.SESSION, List.of(t2, t3), "x", 5, axis(0), false))).isEmpty();
    s.offer(exchange(4, 30, axis(0)));
    assertThat(s.flush()).singleElement().satisfies(seg ->
        assertThat(seg.turns()).extracting(RawTurn::index).containsExactly(0, 1, 2, 4));
    // still a repeat after the flush
    assertThat(s.offer(exchange(4, 30, axis(0)))).isEmpty();
    assertThat(s.flush()).isEmpty();
  }

  @Test
  void reOfferedDecisionsDoNotEnterTheHistory() {
    SemanticSegmenter a = segmenter();
    SemanticSegmenter b = segmenter();
    List<Exchange> run = run(12);
    a.offerAll(run.subList(0, 8));
    a.offerAll(run.subList(0, 8));
    a.offerAll(run.subList(8, 12));
    b.offerAll(run);
    assertThat(a.lastDecision()).isEqualTo(b.lastDecision());
  }

  @Test
  void exchangesOfAnotherSessionAreRejected() {
    SemanticSegmenter s = segmenter();
    RawTurn t = new RawTurn(Fixtures.NS, TurnRef.of("other", 0), Role.USER, null, "x", null);
    Exchange foreign = new Exchange(Fixtures.NS, "other", List.of(t), "user: x", 1, axis(0), false);
    assertThatThrownBy(() -> s.offer(foreign)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("other");
  }

  @Test
  void historyCarriesOverBoundariesAndIsDroppedOnFlush() {
    // nine small steps build a history of low surprise; then a jump cuts; the segment after the
    // cut still sees that history, so its first decision has a robust z
    SemanticSegmenter s = segmenter();
    List<Exchange> xs = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      xs.add(exchange(i, 30, Fixtures.between(0, 1, 0.05 * i)));
    }
    s.offerAll(xs);
    List<Segment> cut = s.offer(exchange(9, 30, axis(2)));
    assertThat(cut).singleElement().satisfies(seg -> assertThat(seg.reason()).isEqualTo(CloseReason.SEMANTIC_BOUNDARY));
    s.offer(exchange(10, 30, Fixtures.between(2, 3, 0.3)));
    BoundaryDecision carried = s.lastDecision();
    assertThat(carried.robust()).isNotZero();

    SemanticSegmenter fresh = segmenter();
    fresh.offer(exchange(9, 30, axis(2)));
    fresh.offer(exchange(10, 30, Fixtures.between(2, 3, 0.3)));
    assertThat(fresh.lastDecision().robust()).isZero();
    assertThat(fresh.lastDecision().surprise()).isEqualTo(carried.surprise());

    s.flush();
    s.offer(exchange(11, 30, axis(4)));
    s.offer(exchange(12, 30, Fixtures.between(4, 5, 0.3)));
    assertThat(s.lastDecision().robust()).isZero();
  }

  @Test
  void aFreshSegmenterGivenTheRemainingExchangesCoversEveryTurnOnce() {
    List<Exchange> all = run(40);
    SemanticSegmenter before = segmenter();
    List<Segment> closed = new ArrayList<>(before.offerAll(all.subList(0, 23)));
    // restart: the segmenter is lost; the pipeline re-offers everything not in a closed segment
    int taken = closed.isEmpty() ? -1 : closed.get(closed.size() - 1).lastIndex();
    SemanticSegmenter after = segmenter();
    closed.addAll(after.offerAll(all.stream().filter(e -> e.firstIndex() > taken).toList()));
    closed.addAll(after.flush());
    assertThat(closed.stream().flatMap(seg -> seg.turns().stream()).map(RawTurn::index).toList())
        .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 40).boxed().toList());
  }

  @Test
  void theAuthorsThresholdCutsLessOften() {
    List<Exchange> xs = run(60);
    int paper = countBoundaries(segmenter(), xs);
    int authors = countBoundaries(segmenter(SegmentationConfig.builder().threshold(0.55).build()), xs);
    assertThat(paper).isGreaterThan(0);
    assertThat(authors).isLessThanOrEqualTo(paper);
  }

  private static int countBoundaries(SemanticSegmenter s, List<Exchange> xs) {
    return (int) s.offerAll(xs).stream().filter(g -> g.reason() == CloseReason.SEMANTIC_BOUNDARY).count();
  }

  /** Topic runs: four to seven exchanges near one axis, then a jump to the next axis. */
  static List<Exchange> run(int n) {
    List<Exchange> out = new ArrayList<>();
    java.util.Random random = new java.util.Random(42);
    int axis = 0;
    int left = 4 + random.nextInt(4);
    for (int i = 0; i < n; i++) {
      if (left-- == 0) {
        axis = (axis + 1) % Fixtures.DIM;
        left = 3 + random.nextInt(4);
      }
      int other = (axis + 1 + random.nextInt(Fixtures.DIM - 1)) % Fixtures.DIM;
      out.add(exchange(i, 20 + random.nextInt(40), Fixtures.between(axis, other, 0.2 * random.nextDouble())));
    }
    return out;
  }
}
