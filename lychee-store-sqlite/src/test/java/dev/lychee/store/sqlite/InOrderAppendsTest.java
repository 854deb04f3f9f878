package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.Module;
import dev.lychee.api.Turn;
import dev.lychee.api.TurnConflictException;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.Embedder;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An append in order is stored without reading the session's next index first (docs/defaults.md
 * §3.3); SQLite's write transaction hands the admission's refusal back unchanged and rolls back,
 * so a call that was not in order runs again with the index read and its conflict check, from one
 * process or two on one file.
 */
class InOrderAppendsTest {
  @TempDir
  Path dir;

  private Lychee open(Path db) {
    Module embedder = b -> b.bind(Embedder.class).toInstance(new HashingEmbedder());
    return Lychee.create(LycheeConfig.builder().segmenter("turn").build(),
        new SqliteStoreModule(db, SqliteStoreConfig.builder().synchronousFull(false).build()), embedder);
  }

  @Test
  void aTurnOfAnotherWriterAtTheSameIndexIsAConflictAndTheSameTextANoOp() {
    Path db = dir.resolve("memory.db");
    try (Lychee first = open(db); Lychee second = open(db)) {
      for (int i = 0; i < 3; i++) {
        assertThat(first.append("ns", "s", null, List.of(Turn.user("Amy", "Amy's turn " + i + ".").withIndex(i)))
            .turnsStored()).isEqualTo(1);
      }
      assertThat(second.append("ns", "s", null, List.of(Turn.user("Bo", "Bo's own turn.").withIndex(3))).turnsStored())
          .isEqualTo(1);
      assertThatThrownBy(() -> first.append("ns", "s", null, List.of(Turn.user("Amy", "Amy's turn 3.").withIndex(3))))
          .isInstanceOfSatisfying(TurnConflictException.class,
              e -> assertThat(e.conflicts()).containsExactly(TurnRef.of("s", 3)));
      assertThat(first.append("ns", "s", null, List.of(Turn.user("Bo", "Bo's own turn.").withIndex(3))).turnsStored())
          .isZero();
      assertThat(first.append("ns", "s", null, List.of(Turn.user("Amy", "Amy without an index.")))
          .turnsStored()).isEqualTo(1);
      assertThat(first.store().turns("ns", "s")).extracting(t -> t.index() + " " + t.speaker())
          .containsExactly("0 Amy", "1 Amy", "2 Amy", "3 Bo", "4 Amy");
    }
  }
}
