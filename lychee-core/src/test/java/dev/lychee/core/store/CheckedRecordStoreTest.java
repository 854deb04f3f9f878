package dev.lychee.core.store;

import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.RawTurn;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckedRecordStoreTest {
  private final InMemoryRecordStore backend = new InMemoryRecordStore();
  private final RecordStore store = CheckedRecordStore.of(backend);

  @Test
  void wrappingIsIdempotentAndExposesTheBackend() {
    assertThat(CheckedRecordStore.of(store)).isSameAs(store);
    assertThat(((CheckedRecordStore) store).storage()).isSameAs(backend);
    assertThat(store.toString()).contains("CheckedRecordStore");
  }

  @Test
  void aRefusedCallNeverReachesTheBackend() {
    RawTurn foreign = turn("other", "s", 0, "not yours");
    assertThatThrownBy(() -> store.appendTurns("ns", "s", List.of(foreign)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespace 'other'");
    assertThat(backend.countTurns("ns")).isZero();
    assertThat(backend.countTurns("other")).isZero();
    assertThatThrownBy(() -> store.searchText("ns", null, "x", 3)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> store.searchText("ns", TextField.TURNS, "x", 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k must be > 0");
  }

  @Test
  void turnsAnAdmissionChoosesAreCheckedInsideTheTransaction() {
    assertThatThrownBy(() -> store.appendTurns("ns", "s", next -> List.of(turn("ns", "elsewhere", next, "x"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("session 'elsewhere'");
    assertThat(backend.turns("ns", "s")).isEmpty();
    assertThat(store.appendTurns("ns", "s", next -> List.of(turn("ns", "s", next, "ok"))))
        .extracting(RawTurn::index).containsExactly(0);
  }

  @Test
  void emptyBatchesAndNullQueriesAreAnsweredWithoutTheBackend() {
    assertThat(store.appendTurns("ns", "s", List.of())).isEmpty();
    assertThat(store.records("ns", List.of())).isEmpty();
    assertThat(store.searchText("ns", TextField.TURNS, null, 3)).isEmpty();
    assertThat(store.turns("ns", "s", 5, 1)).isEmpty();
  }

  @Test
  void closingTwiceIsHarmlessAndLaterCallsAreRefused() {
    store.close();
    store.close();
    assertThatThrownBy(store::namespaces).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> store.forget("ns")).isInstanceOf(IllegalStateException.class);
  }
}
