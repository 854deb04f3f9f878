package dev.lychee.provider.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BackoffTest {

  @Test
  void retryAfterIsReadAsSecondsOrHttpDate() {
    Clock clock = Clock.fixed(Instant.parse("2015-10-21T07:27:50Z"), ZoneOffset.UTC);
    assertThat(Backoff.parseRetryAfter("1", clock)).contains(Duration.ofSeconds(1));
    assertThat(Backoff.parseRetryAfter(" 120 ", clock)).contains(Duration.ofSeconds(120));
    assertThat(Backoff.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", clock)).contains(Duration.ofSeconds(10));
    assertThat(Backoff.parseRetryAfter("Wed, 21 Oct 2015 07:00:00 GMT", clock)).contains(Duration.ZERO);
    assertThat(Backoff.parseRetryAfter("soon", clock)).isEmpty();
    assertThat(Backoff.parseRetryAfter("", clock)).isEmpty();
    assertThat(Backoff.parseRetryAfter("99999999999999999999999", clock)).isEmpty();
  }

  @Test
  void backoffDoublesAndIsCapped() {
    Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMillis(350), Clock.systemUTC());
    assertThat(b.waitAfter(1, Optional.empty())).isEqualTo(Duration.ofMillis(100));
    assertThat(b.waitAfter(2, Optional.empty())).isEqualTo(Duration.ofMillis(200));
    assertThat(b.waitAfter(3, Optional.empty())).isEqualTo(Duration.ofMillis(350));
    assertThat(b.waitAfter(60, Optional.empty())).isEqualTo(Duration.ofMillis(350));
    // a server asking for an hour gets the cap
    assertThat(b.waitAfterHeader(1, Optional.of("3600"))).isEqualTo(Duration.ofMillis(350));
    assertThat(b.waitAfterHeader(1, Optional.of("0"))).isEqualTo(Duration.ZERO);
  }

  @Test
  void settingsMustBePositive() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1), Clock.systemUTC()))
        .hasMessage("initial backoff must be positive: PT0S");
    assertThatThrownBy(() -> Backoff.positive(Duration.ofMillis(-1), "timeout")).hasMessageStartingWith("timeout must be positive");
  }
}
