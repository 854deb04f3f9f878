package dev.lychee.core.fallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.ProviderException;
import dev.lychee.api.spi.ChatModel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The read deadline from the environment ({@code LYCHEE_DEADLINE}), and the error that names it. */
@Timeout(60)
class FallbackConfigTest {

  @Test
  void theDeadlineVariableIsSecondsWithDecimals() {
    assertThat(FallbackConfig.deadlineFromEnvironment(Map.of())).isEmpty();
    assertThat(FallbackConfig.deadlineFromEnvironment(Map.of("LYCHEE_DEADLINE", "  "))).isEmpty();
    assertThat(FallbackConfig.deadlineFromEnvironment(Map.of("LYCHEE_DEADLINE", "5"))).contains(Duration.ofSeconds(5));
    assertThat(FallbackConfig.deadlineFromEnvironment(Map.of("LYCHEE_DEADLINE", " 2.5 "))).contains(Duration.ofMillis(2500));
    assertThat(FallbackConfig.deadlineFromEnvironment(Map.of("LYCHEE_DEADLINE", "86400"))).contains(Duration.ofDays(1));
  }

  @Test
  void aBadDeadlineIsRefusedNamingTheVariableAndTheRange() {
    for (String bad : new String[] {"soon", "0", "-3", "86401", "NaN", "Infinity", "60s"}) {
      assertThatThrownBy(() -> FallbackConfig.deadlineFromEnvironment(Map.of("LYCHEE_DEADLINE", bad)))
          .as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("LYCHEE_DEADLINE='" + bad + "': expected the read deadline as a number of seconds in (0, 86400], e.g. 60");
    }
  }

  /** A read whose model does not answer in time fails with a message naming the setting that exists. */
  @Test
  void aPassedDeadlineNamesTheVariableThatSetsIt() {
    CountDownLatch never = new CountDownLatch(1);
    ChatModel silent = new ChatModel() {
      @Override
      public ChatResult chat(ChatRequest request) {
        try {
          never.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        throw new IllegalStateException("interrupted");
      }

      @Override
      public String modelId() {
        return "silent";
      }
    };
    DeadlineChatModel model = new DeadlineChatModel(silent);
    ChatRequest request = ChatRequest.of(List.of(ChatMessage.user("hello")), false);
    assertThatThrownBy(() -> ReadDeadline.within(Duration.ofMillis(50), () -> model.chat(request)))
        .isInstanceOf(ProviderException.class)
        .hasMessageContaining("read deadline").hasMessageContaining("FallbackConfig.deadline").hasMessageContaining("LYCHEE_DEADLINE");
  }
}
