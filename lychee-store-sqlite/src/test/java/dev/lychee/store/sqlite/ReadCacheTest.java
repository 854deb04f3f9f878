package dev.lychee.store.sqlite;

import static dev.lychee.core.conformance.StoreFixtures.node;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.testing.StoreWrites;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read cache must never serve what another writer changed. Two stores over one file with
 * separate databases (pools, caches) stand in for two processes: one reads, the other writes.
 */
class ReadCacheTest {
  @TempDir Path dir;
  private RecordStore reader;
  private RecordStore writer;

  @BeforeEach
  void open() {
    Path file = dir.resolve("shared.db");
    reader = SqliteRecordStore.open(file, SqliteRecordStoreTest.quick());
    writer = SqliteRecordStore.open(file, SqliteRecordStoreTest.quick());
  }

  @AfterEach
  void close() {
    reader.close();
    writer.close();
  }

  @Test
  void anotherConnectionsCommitEmptiesTheCache() {
    writer.appendTurns("ns", "s", List.of(turn("ns", "s", 0, "lychee jam"), turn("ns", "s", 1, "more jam")));
    MemoryRecord r = record("ns", "Ann likes lychee jam.", TurnRef.of("s", 0));
    EvidenceNode n = node("ns", NodeKind.TAG, "jam", "Tag: jam", List.of(r.id()), "s", null);
    StoreWrites.records(writer, "ns", List.of(r));
    StoreWrites.nodes(writer, "ns", List.of(n));

    // fill the cache
    assertThat(reader.records("ns", List.of(r.id()))).singleElement()
        .satisfies(x -> assertThat(x.evidence()).hasSize(1));
    assertThat(reader.nodes("ns", List.of(n.id()))).hasSize(1);
    assertThat(reader.nodes("ns", NodeKind.TAG)).hasSize(1);
    assertThat(reader.turns("ns", List.of(TurnRef.of("s", 0), TurnRef.of("s", 1)))).hasSize(2);
    assertThat(reader.turns("ns", "s", 0, 5)).hasSize(2);
    assertThat(reader.searchText("ns", TextField.TURNS, "jam", 10)).hasSize(2);

    // the other writer merges, appends and then forgets a session
    StoreWrites.records(writer, "ns", List.of(record("ns", "Ann likes lychee jam.", TurnRef.of("s", 1))));
    assertThat(reader.records("ns", List.of(r.id()))).singleElement()
        .satisfies(x -> assertThat(x.evidence()).hasSize(2));
    writer.appendTurns("ns", "s", List.of(turn("ns", "s", 2, "jam again")));
    assertThat(reader.turns("ns", "s", 0, 5)).extracting(RawTurn::index).containsExactly(0, 1, 2);
    assertThat(reader.searchText("ns", TextField.TURNS, "jam", 10)).extracting(ScoredId::id).hasSize(3);

    writer.forget("ns", "s");
    assertThat(reader.records("ns", List.of(r.id()))).isEmpty();
    assertThat(reader.nodes("ns", List.of(n.id()))).isEmpty();
    assertThat(reader.nodes("ns", NodeKind.TAG)).isEmpty();
    assertThat(reader.turns("ns", List.of(TurnRef.of("s", 0)))).isEmpty();
    assertThat(reader.turns("ns", "s", 0, 5)).isEmpty();
    assertThat(reader.searchText("ns", TextField.TURNS, "jam", 10)).isEmpty();
  }

  @Test
  void ownWritesAreSeenAtOnce() {
    reader.appendTurns("ns", "s", List.of(turn("ns", "s", 0, "lychee")));
    assertThat(reader.turns("ns", "s", 0, 3)).hasSize(1);
    reader.appendTurns("ns", "s", List.of(turn("ns", "s", 1, "lychee two")));
    assertThat(reader.turns("ns", "s", 0, 3)).hasSize(2);
    reader.forget("ns");
    assertThat(reader.turns("ns", "s", 0, 3)).isEmpty();
  }

  @Test
  void aDisabledCacheStillAnswers() {
    try (RecordStore plain = SqliteRecordStore.open(dir.resolve("plain.db"),
        SqliteRecordStoreTest.quick().toBuilder().readCacheMaxEntries(0).build())) {
      plain.appendTurns("ns", "s", List.of(turn("ns", "s", 0, "lychee")));
      assertThat(plain.turns("ns", List.of(TurnRef.of("s", 0)))).hasSize(1);
      plain.forget("ns");
      assertThat(plain.turns("ns", List.of(TurnRef.of("s", 0)))).isEmpty();
    }
  }
}
