package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.AbstractModule;
import dev.lychee.api.TurnConflictException;
import dev.lychee.api.spi.Embedder;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.api.Turn;
import dev.lychee.api.TurnRef;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestConfig;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An append in order does not read the session's next index before storing (docs/defaults.md
 * §3.3); what makes that exact with two instances on one database is the check under the session's
 * row lock: when the other instance stored at or above an explicit index meanwhile, nothing is
 * stored and the call runs again with the index read first, so a different text under a stored
 * index is still a conflict and the same text still a no-op.
 */
class InOrderAppendsTest {

  private static Lychee instance(String url, PostgresStoreConfig config) {
    LycheeConfig lychee = LycheeConfig.builder()
        .ingest(IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC).resumeOnOpen(false).build()).build();
    return Lychee.create(lychee, new PostgresStoreModule(url, config), new AbstractModule() {
      @Override
      protected void configure() {
        bind(Embedder.class).toInstance(new HashingEmbedder());
      }
    });
  }

  private static List<Turn> said(String who, String text, int index) {
    return List.of(Turn.user(who, text).withIndex(index));
  }

  @Test
  @Timeout(240)
  void anotherInstancesTurnAtTheSameIndexIsSeenUnderTheLock() {
    String url = TestPostgres.get().url();
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(3).build();
    try (Lychee first = instance(url, config); Lychee second = instance(url, config)) {
      for (int i = 0; i < 3; i++) {
        assertThat(first.append("ns", "s", null, said("Amy", "Amy's turn number " + i + " about her cat.", i))
            .turnsStored()).isEqualTo(1);
      }
      // the second instance takes index 3 with its own text; the first still assumes it is free
      assertThat(second.append("ns", "s", null, said("Bo", "Bo says something else entirely.", 3)).turnsStored())
          .isEqualTo(1);
      assertThatThrownBy(() -> first.append("ns", "s", null, said("Amy", "Amy's turn number 3 about her cat.", 3)))
          .isInstanceOfSatisfying(TurnConflictException.class,
              e -> assertThat(e.conflicts()).containsExactly(TurnRef.of("s", 3)));
      // the same text again is a no-op from either instance; the next index goes on from the stored ones
      assertThat(first.append("ns", "s", null, said("Bo", "Bo says something else entirely.", 3)).turnsStored()).isZero();
      assertThat(first.append("ns", "s", null, said("Amy", "Amy's turn number 4 about her cat.", 4)).turnsStored())
          .isEqualTo(1);
      // turns without an index, from both instances in turn, take the next free indices, none twice
      assertThat(second.append("ns", "s", null, List.of(Turn.user("Bo", "Bo adds a turn without an index.")))
          .turnsStored()).isEqualTo(1);
      assertThat(first.append("ns", "s", null, List.of(Turn.user("Amy", "Amy adds one without an index too.")))
          .turnsStored()).isEqualTo(1);
      first.awaitIdle("ns", Duration.ofMinutes(1));
      second.awaitIdle("ns", Duration.ofMinutes(1));
      assertThat(first.store().turns("ns", "s")).extracting(t -> t.index() + " " + t.speaker())
          .containsExactly("0 Amy", "1 Amy", "2 Amy", "3 Bo", "4 Amy", "5 Bo", "6 Amy");
      assertThat(first.store().nextTurnIndex("ns", "s")).isEqualTo(7);
    }
  }
}
