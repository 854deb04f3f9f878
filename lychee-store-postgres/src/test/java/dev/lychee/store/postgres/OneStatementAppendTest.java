package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.store.CheckedRecordStore;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The turn's transaction as one statement ({@link TurnTable#appendInOrder}): an instance that
 * appended to a session before stores its next turns in one statement in autocommit, checked
 * under the session's lock against the next index it saw; two instances on one database, the
 * first's statements counted at its driver. When the other instance appended or forgot meanwhile,
 * the statement writes nothing and the transaction stores the turns as before.
 */
class OneStatementAppendTest {
  private CountingDataSource counting;
  private PostgresDatabase db;
  private RecordStore first;
  private RecordStore second;

  @BeforeEach
  void open() {
    String schema = TestPostgres.freshSchema();
    counting = new CountingDataSource(TestPostgres.get().url());
    db = PostgresDatabase.open(counting, PostgresStoreConfig.builder().maxPoolSize(2).schema(schema).build());
    first = CheckedRecordStore.of(new PostgresRecordStore(db));
    second = PostgresRecordStore.open(TestPostgres.get().url(), PostgresStoreConfig.builder().maxPoolSize(2)
        .schema(schema).build());
  }

  @AfterEach
  void close() {
    first.close();
    second.close();
  }

  private static RawTurn turn(String session, int index, String text) {
    return new RawTurn("ns", new TurnRef(session, index), Role.USER, "Amy", text, LocalDateTime.of(2023, 5, 7, 13, 0));
  }

  /** Turns without an index, as the write path admits them: from the next index on, in order. */
  private static IntFunction<List<RawTurn>> unindexed(AtomicInteger calls, String... texts) {
    return next -> {
      calls.incrementAndGet();
      List<RawTurn> out = new ArrayList<>();
      for (int i = 0; i < texts.length; i++) {
        out.add(turn("s", next + i, texts[i]));
      }
      return out;
    };
  }

  @Test
  void anAppendAfterTheInstancesOwnIsOneStatementAndAnotherInstancesWriteSendsItToTheTransaction() {
    AtomicInteger calls = new AtomicInteger();
    // the instance's first append to the session knows no next index: the transaction
    assertThat(first.appendTurns("ns", "s", unindexed(calls, "zero", "one"))).extracting(RawTurn::index)
        .containsExactly(0, 1);
    counting.drain();

    List<RawTurn> stored = first.appendTurns("ns", "s", unindexed(calls, "two"));
    List<String> sent = counting.drain();
    assertThat(stored).containsExactly(turn("s", 2, "two"));
    assertThat(sent).as("statements sent: %s", sent).hasSize(1).noneMatch("COMMIT"::equals);
    assertThat(sent.get(0)).startsWith("WITH lock AS (UPDATE sessions");
    assertThat(first.nextTurnIndex("ns", "s")).isEqualTo(3);

    // the other instance takes index 3: the guess 3 is stale, the statement writes nothing, and the
    // transaction calls admit again with the index it reads under the lock
    second.appendTurns("ns", "s", List.of(turn("s", 3, "from the other instance")));
    calls.set(0);
    counting.drain();
    assertThat(first.appendTurns("ns", "s", unindexed(calls, "four"))).containsExactly(turn("s", 4, "four"));
    sent = counting.drain();
    assertThat(calls).hasValue(2);
    assertThat(sent).as("statements sent: %s", sent).first().asString().startsWith("WITH lock AS");
    assertThat(sent).contains("COMMIT");

    // the other instance forgets the session: the guess 5 is above the real index, no row to lock
    second.forget("ns", "s");
    assertThat(first.appendTurns("ns", "s", unindexed(calls, "again"))).containsExactly(turn("s", 0, "again"));
    // and the guess it keeps from that transaction serves the next call in one statement again
    counting.drain();
    assertThat(first.appendTurns("ns", "s", unindexed(calls, "and on"))).containsExactly(turn("s", 1, "and on"));
    assertThat(counting.drain()).hasSize(1);
    assertThat(second.turns("ns", "s")).extracting(RawTurn::text).containsExactly("again", "and on");
    assertThat(second.nextTurnIndex("ns", "s")).isEqualTo(2);
  }

  @Test
  void explicitIndicesBelowTheGuessAndAdmitFailingAtTheGuessTakeTheTransaction() {
    AtomicInteger calls = new AtomicInteger();
    first.appendTurns("ns", "s", unindexed(calls, "zero", "one", "two"));
    // an explicit index below the guessed next index is not in order: the transaction skips it as stored
    counting.drain();
    assertThat(first.appendTurns("ns", "s", next -> List.of(turn("s", 1, "one")))).isEmpty();
    assertThat(counting.drain()).noneMatch(sql -> sql.startsWith("WITH lock AS"));
    // a failure at the guessed index is left to the transaction, which fails the same way
    assertThatThrownBy(() -> first.appendTurns("ns", "s", next -> {
      throw new IllegalArgumentException("refused at " + next);
    })).hasMessage("refused at 3");
    assertThat(second.turns("ns", "s")).extracting(RawTurn::index).containsExactly(0, 1, 2);
  }

  @Test
  void theStatementWritesNothingWithoutTheSessionRowOrWhenATurnBrokeTheRule() {
    TurnTable table = new TurnTable();
    UUID token = UUID.randomUUID();
    boolean stored = db.writeStatement(h -> table.appendInOrder(h, "ns", "s", 0, List.of(turn("s", 0, "zero")), token));
    assertThat(stored).as("no session row yet").isFalse();
    assertThat(first.turns("ns", "s")).isEmpty();
    assertThat(first.sessions("ns")).isEmpty();

    first.appendTurns("ns", "s", next -> List.of(turn("s", next, "zero")));
    stored = db.writeStatement(h -> table.appendInOrder(h, "ns", "s", 1, List.of(turn("s", 1, "one")), token));
    assertThat(stored).isTrue();
    // a lost acknowledgement: the transaction's run after it finds the statement's run by its token
    TurnTable.Admitted rerun = db.write(h -> table.appendAdmitted(h, "ns", "s", next -> List.of(turn("s", next, "one")),
        token, true));
    assertThat(rerun).isEqualTo(new TurnTable.Admitted(List.of(turn("s", 1, "one")), 2));

    // a turn stored at the next index against the rule: a unique violation, and nothing written
    db.writeStatement(h -> h.createUpdate("INSERT INTO turns(namespace, session, idx, role, text, tsv)"
        + " VALUES ('ns', 's', 2, 'user', 'planted', to_tsvector('simple', 'planted'))").execute());
    assertThatThrownBy(() -> db.writeStatement(h -> table.appendInOrder(h, "ns", "s", 2,
        List.of(turn("s", 2, "two"), turn("s", 3, "three")), UUID.randomUUID())))
        .satisfies(e -> assertThat(Failures.isUniqueViolation(e)).isTrue());
    assertThat(first.nextTurnIndex("ns", "s")).isEqualTo(2);
    assertThat(first.turns("ns", "s")).extracting(RawTurn::text).containsExactly("zero", "one", "planted");
  }
}
