package dev.lychee.core.segment;

import static dev.lychee.core.segment.Fixtures.axis;
import static dev.lychee.core.segment.Fixtures.exchange;
import static dev.lychee.core.segment.Fixtures.fragment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import org.junit.jupiter.api.Test;

class TurnSegmenterTest {

  @Test
  void everyExchangeIsASegment() {
    TurnSegmenter s = new TurnSegmenter(Fixtures.NS, Fixtures.SESSION);
    for (int i = 0; i < 3; i++) {
      int index = i;
      assertThat(s.offer(exchange(i, 20 + i, axis(0)))).singleElement().satisfies(seg -> {
        assertThat(seg.reason()).isEqualTo(CloseReason.PER_EXCHANGE);
        assertThat(seg.firstIndex()).isEqualTo(index);
        assertThat(seg.exchanges()).isEqualTo(1);
        assertThat(seg.tokens()).isEqualTo(20 + index);
        assertThat(seg.score()).isNaN();
      });
    }
    assertThat(s.flush()).isEmpty();
  }

  @Test
  void reOffersAreIgnoredAndFragmentsAreMarked() {
    TurnSegmenter s = new TurnSegmenter(Fixtures.NS, Fixtures.SESSION);
    s.offer(exchange(0, 5, axis(0)));
    assertThat(s.offer(exchange(0, 5, axis(0)))).isEmpty();
    assertThat(s.offer(fragment(1, "piece", 2000))).singleElement()
        .satisfies(seg -> assertThat(seg.reason()).isEqualTo(CloseReason.OVERSIZED_TURN_FRAGMENT));
  }
}
