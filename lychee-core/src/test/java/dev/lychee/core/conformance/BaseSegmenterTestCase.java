package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.Exchange;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.Segmenter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite for {@link Segmenter}: every implementation extends it and supplies {@link
 * #factory()}. It checks the contract on the interface: after a flush every offered turn is in
 * exactly one segment, segments come back in turn order and carry the namespace, session, exchange
 * and token counts; re-offers are ignored; a fragment of an oversized turn forms a segment of its
 * own; a fresh segmenter given the turns not yet in a closed segment (the restart path) completes
 * the session without gaps or duplicates; exchanges of another session are rejected.
 */
public abstract class BaseSegmenterTestCase {

  protected static final String NS = "tenant";
  protected static final String SESSION = "session-1";
  private static final int DIM = 16;

  /** The factory under test. */
  protected abstract Segmenter.Factory factory();

  /** The factory's expected name. */
  protected abstract String expectedName();

  @Test
  void factoryHasItsNameAndCreatesIndependentSegmenters() {
    Segmenter.Factory f = factory();
    assertThat(f.name()).isEqualTo(expectedName());
    Segmenter a = f.create(NS, SESSION);
    Segmenter b = f.create(NS, SESSION);
    assertThat(a).isNotSameAs(b);
    a.offerAll(stream(5, 1));
    // b has seen nothing: it takes the same exchanges
    List<Segment> fromB = new ArrayList<>(b.offerAll(stream(5, 1)));
    fromB.addAll(b.flush());
    assertThat(turnIndices(fromB)).containsExactlyElementsOf(IntStream.range(0, 10).boxed().toList());
  }

  @Test
  void everyTurnLandsInExactlyOneSegmentInOrder() {
    for (long seed = 1; seed <= 5; seed++) {
      List<Exchange> xs = stream(120, seed);
      Segmenter s = factory().create(NS, SESSION);
      List<Segment> segments = new ArrayList<>();
      for (Exchange e : xs) {
        segments.addAll(s.offer(e));
      }
      segments.addAll(s.flush());
      assertThat(turnIndices(segments)).containsExactlyElementsOf(IntStream.range(0, 240).boxed().toList());
      assertThat(segments).allSatisfy(seg -> {
        assertThat(seg.namespace()).isEqualTo(NS);
        assertThat(seg.session()).isEqualTo(SESSION);
        assertThat(seg.reason()).isNotNull();
        assertThat(seg.exchanges()).isPositive();
        if (!Double.isNaN(seg.probability())) {
          assertThat(seg.probability()).isBetween(0.0, 1.0);
        }
      });
      assertThat(segments.stream().mapToInt(Segment::exchanges).sum()).isEqualTo(xs.size());
      assertThat(segments.stream().mapToInt(Segment::tokens).sum())
          .isEqualTo(xs.stream().mapToInt(Exchange::tokens).sum());
    }
  }

  @Test
  void reOffersAreIgnored() {
    List<Exchange> xs = stream(40, 3);
    Segmenter once = factory().create(NS, SESSION);
    List<Segment> expected = new ArrayList<>(once.offerAll(xs));
    expected.addAll(once.flush());

    Segmenter twice = factory().create(NS, SESSION);
    List<Segment> actual = new ArrayList<>();
    actual.addAll(twice.offerAll(xs.subList(0, 25)));
    actual.addAll(twice.offerAll(xs.subList(0, 25)));
    actual.addAll(twice.offerAll(xs));
    actual.addAll(twice.flush());
    assertThat(actual).isEqualTo(expected);
    // and after the flush the old turns stay taken
    assertThat(twice.offerAll(xs)).isEmpty();
    assertThat(twice.flush()).isEmpty();
  }

  @Test
  void flushOnAnEmptySegmenterReturnsNothing() {
    Segmenter s = factory().create(NS, SESSION);
    assertThat(s.flush()).isEmpty();
    s.offerAll(stream(3, 2));
    s.flush();
    assertThat(s.flush()).isEmpty();
  }

  @Test
  void aFragmentOfAnOversizedTurnIsASegmentOfItsOwn() {
    Segmenter s = factory().create(NS, SESSION);
    List<Segment> segments = new ArrayList<>(s.offerAll(stream(3, 4)));
    RawTurn big = new RawTurn(NS, TurnRef.of(SESSION, 6), Role.USER, null, "first half", null);
    RawTurn rest = new RawTurn(NS, TurnRef.of(SESSION, 6), Role.USER, null, "second half", null);
    segments.addAll(s.offer(new Exchange(NS, SESSION, List.of(big), "user: first half", 1900, unit(0), true)));
    segments.addAll(s.offer(new Exchange(NS, SESSION, List.of(rest), "user: second half", 40, unit(0), true)));
    segments.addAll(s.flush());
    List<Segment> withSix = segments.stream().filter(g -> g.turns().stream().anyMatch(t -> t.index() == 6)).toList();
    assertThat(withSix).hasSize(2).allSatisfy(g -> assertThat(g.turns()).hasSize(1));
    assertThat(withSix).extracting(g -> g.turns().get(0).text()).containsExactly("first half", "second half");
    assertThat(turnIndices(segments)).containsExactly(0, 1, 2, 3, 4, 5, 6, 6);
  }

  @Test
  void aFreshSegmenterGivenTheRemainingExchangesCompletesTheSession() {
    List<Exchange> xs = stream(60, 5);
    Segmenter before = factory().create(NS, SESSION);
    List<Segment> closed = new ArrayList<>(before.offerAll(xs.subList(0, 37)));
    int lastClosed = closed.isEmpty() ? -1 : closed.get(closed.size() - 1).lastIndex();
    Segmenter after = factory().create(NS, SESSION);
    closed.addAll(after.offerAll(xs.stream().filter(e -> e.firstIndex() > lastClosed).toList()));
    closed.addAll(after.flush());
    assertThat(turnIndices(closed)).containsExactlyElementsOf(IntStream.range(0, 120).boxed().toList());
  }

  @Test
  void exchangesOfAnotherSessionAreRejected() {
    Segmenter s = factory().create(NS, SESSION);
    RawTurn t = new RawTurn(NS, TurnRef.of("elsewhere", 0), Role.USER, null, "x", null);
    Exchange foreign = new Exchange(NS, "elsewhere", List.of(t), "user: x", 1, unit(0), false);
    assertThatThrownBy(() -> s.offer(foreign)).isInstanceOf(IllegalArgumentException.class);
  }

  // ---------------------------------------------------------------- fixtures

  /**
   * {@code n} two-turn exchanges (user + assistant), indices 0..2n−1, with topic runs: vectors
   * stay near one random direction for a few exchanges, then jump; token counts vary from 10 to
   * 400 so that windows, targets and caps are all exercised.
   */
  protected static List<Exchange> stream(int n, long seed) {
    Random random = new Random(seed);
    List<Exchange> out = new ArrayList<>();
    float[] topic = randomUnit(random);
    for (int i = 0; i < n; i++) {
      if (random.nextInt(5) == 0) {
        topic = randomUnit(random);
      }
      float[] v = new float[DIM];
      double norm = 0;
      for (int d = 0; d < DIM; d++) {
        v[d] = (float) (topic[d] + 0.3 * random.nextGaussian() / Math.sqrt(DIM));
        norm += v[d] * v[d];
      }
      for (int d = 0; d < DIM; d++) {
        v[d] /= (float) Math.sqrt(norm);
      }
      int tokens = random.nextInt(10) == 0 ? 300 + random.nextInt(100) : 10 + random.nextInt(60);
      RawTurn u = new RawTurn(NS, TurnRef.of(SESSION, 2 * i), Role.USER, null, "question " + i, null);
      RawTurn a = new RawTurn(NS, TurnRef.of(SESSION, 2 * i + 1), Role.ASSISTANT, null, "answer " + i, null);
      out.add(new Exchange(NS, SESSION, List.of(u, a), "user: question " + i + "\nassistant: answer " + i,
          tokens, v, false));
    }
    return out;
  }

  private static float[] randomUnit(Random random) {
    float[] v = new float[DIM];
    double norm = 0;
    for (int d = 0; d < DIM; d++) {
      v[d] = (float) random.nextGaussian();
      norm += v[d] * v[d];
    }
    for (int d = 0; d < DIM; d++) {
      v[d] /= (float) Math.sqrt(norm);
    }
    return v;
  }

  protected static float[] unit(int axis) {
    float[] v = new float[DIM];
    v[axis] = 1f;
    return v;
  }

  protected static List<Integer> turnIndices(List<Segment> segments) {
    return segments.stream().flatMap(g -> g.turns().stream()).map(RawTurn::index).toList();
  }
}
