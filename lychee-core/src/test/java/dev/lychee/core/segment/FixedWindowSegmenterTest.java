package dev.lychee.core.segment;

import static dev.lychee.core.segment.Fixtures.axis;
import static dev.lychee.core.segment.Fixtures.exchange;
import static dev.lychee.core.segment.Fixtures.fragment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import dev.lychee.api.Segment;
import java.util.List;
import org.junit.jupiter.api.Test;

class FixedWindowSegmenterTest {

  private static FixedWindowSegmenter segmenter() {
    return new FixedWindowSegmenter(Fixtures.NS, Fixtures.SESSION, SegmentationConfig.defaults());
  }

  @Test
  void closesBeforeAnExchangeWouldPass600Tokens() {
    FixedWindowSegmenter s = segmenter();
    assertThat(s.offer(exchange(0, 250, axis(0)))).isEmpty();
    assertThat(s.offer(exchange(1, 250, axis(1)))).isEmpty();
    List<Segment> closed = s.offer(exchange(2, 250, axis(2)));
    assertThat(closed).singleElement().satisfies(seg -> {
      assertThat(seg.reason()).isEqualTo(CloseReason.WINDOW_FULL);
      assertThat(seg.tokens()).isEqualTo(500);
      assertThat(seg.exchanges()).isEqualTo(2);
      assertThat(seg.probability()).isEqualTo(1.0);
    });
    assertThat(s.flush()).singleElement().satisfies(seg -> {
      assertThat(seg.reason()).isEqualTo(CloseReason.SESSION_FLUSH);
      assertThat(seg.firstIndex()).isEqualTo(2);
    });
  }

  @Test
  void aWindowAtExactly600TokensClosesAtOnce() {
    FixedWindowSegmenter s = segmenter();
    s.offer(exchange(0, 300, axis(0)));
    assertThat(s.offer(exchange(1, 300, axis(0)))).singleElement()
        .satisfies(seg -> assertThat(seg.tokens()).isEqualTo(600));
  }

  @Test
  void closesAtTenExchanges() {
    FixedWindowSegmenter s = segmenter();
    for (int i = 0; i < 9; i++) {
      assertThat(s.offer(exchange(i, 10, axis(0)))).isEmpty();
    }
    assertThat(s.offer(exchange(9, 10, axis(0)))).singleElement().satisfies(seg -> {
      assertThat(seg.reason()).isEqualTo(CloseReason.WINDOW_FULL);
      assertThat(seg.exchanges()).isEqualTo(10);
    });
    assertThat(s.flush()).isEmpty();
  }

  @Test
  void anExchangeAboveTheWindowIsAWindowOfItsOwn() {
    FixedWindowSegmenter s = segmenter();
    s.offer(exchange(0, 100, axis(0)));
    List<Segment> closed = s.offer(exchange(1, 900, axis(0)));
    assertThat(closed).extracting(Segment::exchanges).containsExactly(1, 1);
    assertThat(closed).extracting(Segment::reason).containsOnly(CloseReason.WINDOW_FULL);
  }

  @Test
  void windowsFollowTheConfiguration() {
    SegmentationConfig c = SegmentationConfig.builder().windowTokens(100).windowExchanges(3).build();
    FixedWindowSegmenter s = new FixedWindowSegmenter(Fixtures.NS, Fixtures.SESSION, c);
    s.offer(exchange(0, 10, axis(0)));
    s.offer(exchange(1, 10, axis(0)));
    assertThat(s.offer(exchange(2, 10, axis(0)))).singleElement()
        .satisfies(seg -> assertThat(seg.exchanges()).isEqualTo(3));
  }

  @Test
  void fragmentsStandAloneAndReOffersAreIgnored() {
    FixedWindowSegmenter s = segmenter();
    s.offer(exchange(0, 10, axis(0)));
    List<Segment> closed = s.offer(fragment(1, "huge", 2000));
    assertThat(closed).extracting(Segment::reason).containsOnly(CloseReason.OVERSIZED_TURN_FRAGMENT);
    assertThat(closed).hasSize(2);
    assertThat(s.offer(exchange(0, 10, axis(0)))).isEmpty();
    assertThat(s.offer(fragment(1, "huge", 2000))).isEmpty();
    assertThat(s.flush()).isEmpty();
  }
}
