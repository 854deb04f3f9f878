package dev.lychee.provider.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.ProviderException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  private static final String URL = "http://127.0.0.1:1/v1/chat";

  private final List<String> heard = new ArrayList<>();
  private final RetryPolicy policy = new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(5),
      (attempt, status, wait) -> heard.add(attempt + ":" + status + ":" + wait.toMillis()));

  @Test
  void transientStatusesAreRetriedThenTheResultReturned() {
    AtomicInteger calls = new AtomicInteger();
    String result = policy.execute("POST", URL, () -> {
      if (calls.incrementAndGet() < 3) {
        throw new HttpFailure(calls.get() == 1 ? 429 : 503, Optional.of(Duration.ofMillis(2)), "busy", null);
      }
      return "ok";
    });
    assertThat(result).isEqualTo("ok");
    assertThat(heard).containsExactly("1:429:2", "2:503:2");
  }

  @Test
  void givingUpNamesEndpointStatusAndAttempts() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(() -> policy.execute("POST", URL, () -> {
      calls.incrementAndGet();
      throw new HttpFailure(503, Optional.empty(), "overloaded", null);
    }))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.endpoint()).isEqualTo(URL);
          assertThat(e.status()).isEqualTo(503);
        })
        .hasMessage("POST " + URL + " failed with HTTP 503 after 3 attempts: overloaded");
    assertThat(calls).hasValue(3);
    assertThat(heard).containsExactly("1:503:1", "2:503:2");
  }

  @Test
  void permanentStatusesAndOtherFailuresAreNotRetried() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(() -> policy.execute("POST", URL, () -> {
      calls.incrementAndGet();
      throw new HttpFailure(400, Optional.empty(), "bad request", null);
    })).hasMessage("POST " + URL + " failed with HTTP 400 after 1 attempt: bad request");
    ProviderException io = new ProviderException(URL, -1, "timed out", null);
    assertThatThrownBy(() -> policy.execute("POST", URL, () -> {
      calls.incrementAndGet();
      throw io;
    })).isSameAs(io);
    assertThat(calls).hasValue(2);
    assertThat(heard).isEmpty();
  }

  @Test
  void anInterruptedWaitEndsTheCallAndKeepsTheFlag() {
    RetryPolicy slow = new RetryPolicy(1, Duration.ofSeconds(30), Duration.ofSeconds(30), RetryListener.NONE);
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> slow.execute("POST", URL, () -> {
        throw new HttpFailure(502, Optional.empty(), "gateway", null);
      })).hasMessage("interrupted while waiting to retry POST " + URL);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void negativeRetriesAreRejected() {
    assertThatThrownBy(() -> new RetryPolicy(-1, Duration.ofMillis(1), Duration.ofMillis(1), RetryListener.NONE))
        .hasMessage("maxRetries must be >= 0: -1");
  }
}
