package dev.lychee.core.conformance;

import static dev.lychee.core.conformance.StoreFixtures.T0;
import static dev.lychee.core.conformance.StoreFixtures.day;
import static dev.lychee.core.conformance.StoreFixtures.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.DateRange;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.ScoredId;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.testing.StoreWrites;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of {@link dev.lychee.api.spi.RecordLog}: records: every field round-trips, a stored id merges and keeps its place, look-ups keep the request order.
 * {@link BaseRecordStoreTestCase} runs it against every backend; random data comes from fixed
 * seeds so that a failure reproduces.
 */
public abstract class BaseRecordLogTestCase extends StoreCase {

  @Test
  void recordsRoundTripWithEveryField() {
    MemoryRecord full = new MemoryRecord(null, "ns", MemoryType.EVENT,
        "Nadia attended a community choir rehearsal on 7 May 2023.", List.of("Nadia", "community choir rehearsal"),
        List.of("support", "community"),
        new TemporalScope("2023-05-07", "2023-05-07", "", DateRange.day(LocalDate.of(2023, 5, 7)), false),
        List.of(TurnRef.of("s1", 4), TurnRef.of("s1", 2)), "s1", "s1:0-9", SourceRole.USER, T0);
    MemoryRecord bare = new MemoryRecord(null, "ns", MemoryType.PREFERENCE, "Likes tea \"strong\"; 100% 'really'",
        List.of(), List.of(), new TemporalScope("next week-ish", "", "", null, true),
        List.of(TurnRef.of("s1", 1)), "s1", null, null, null);
    MemoryRecord openSpan = new MemoryRecord(null, "ns", MemoryType.CONSTRAINT, "Cannot eat nuts since 2020.",
        List.of("nuts"), List.of(), new TemporalScope("", "2020", "", new DateRange(LocalDate.of(2020, 1, 1), null), false),
        List.of(TurnRef.of("s2", 0)), "s2", "s2:0-0", SourceRole.BOTH, null);
    StoreWrites.records(store, "ns", List.of(full, bare, openSpan));
    reopenIfSupported();
    assertThat(storedRecord("ns", full.id())).contains(full);
    assertThat(store.records("ns")).containsExactly(full, bare, openSpan);
    assertThat(store.records("ns", List.of(openSpan.id(), "unknown", full.id(), openSpan.id())))
        .containsExactly(openSpan, full);
    assertThat(storedRecord("ns", "unknown")).isEmpty();
    assertThat(storedRecord("other", full.id())).isEmpty();
  }

  @Test
  void puttingAStoredRecordMergesProvenanceAndKeepsItsPlace() {
    MemoryRecord a = record("ns", "Alpha fact.", TurnRef.of("s1", 1));
    MemoryRecord b = record("ns", "Beta fact.", TurnRef.of("s1", 2));
    StoreWrites.records(store, "ns", List.of(a, b));
    MemoryRecord again = record("ns", "Alpha fact.", MemoryType.FACT, TemporalScope.NONE,
        List.of("Alpha"), List.of("greek"), TurnRef.of("s2", 7));
    StoreWrites.records(store, "ns", List.of(again));
    reopenIfSupported();
    MemoryRecord merged = a.mergedWith(again);
    assertThat(store.records("ns")).containsExactly(merged, b);
    assertThat(merged.evidence()).containsExactly(TurnRef.of("s1", 1), TurnRef.of("s2", 7));
    assertThat(store.searchText("ns", TextField.RECORDS, "greek", 3)).extracting(ScoredId::id)
        .containsExactly(a.id());
    // a merge inside one call behaves the same
    MemoryRecord c1 = record("ns", "Gamma.", TurnRef.of("s1", 3));
    MemoryRecord c2 = record("ns", "Gamma.", TurnRef.of("s1", 4));
    StoreWrites.records(store, "ns", List.of(c1, c2));
    assertThat(storedRecord("ns", c1.id())).contains(c1.mergedWith(c2));
  }

  @Test
  void recordsKeepYearsOutsideFourDigits() {
    // ISO text of such dates ("-0050-03-15", "+12024-01-02") is where a text-encoding store slips
    LocalDate ancient = LocalDate.of(-50, 3, 15);
    LocalDate far = LocalDate.of(12_024, 1, 2);
    MemoryRecord old = record("ns", "Long ago.", MemoryType.EVENT, day(ancient), List.of(), List.of(), TurnRef.of("s", 0));
    MemoryRecord future = record("ns", "Far ahead.", MemoryType.EVENT,
        new TemporalScope("", "", "", new DateRange(LocalDate.of(2024, 5, 1), far), false), List.of(), List.of(),
        TurnRef.of("s", 1));
    MemoryRecord open = record("ns", "Since antiquity.", MemoryType.FACT,
        new TemporalScope("", "", "", new DateRange(ancient, null), false), List.of(), List.of(), TurnRef.of("s", 2));
    StoreWrites.records(store, "ns", List.of(old, future, open));
    reopenIfSupported();
    assertThat(store.records("ns")).containsExactly(old, future, open);
    assertThat(store.records("ns").get(0).temporal().span().start()).isEqualTo(ancient);
    assertThat(store.records("ns").get(1).temporal().span().end()).isEqualTo(far);
  }
}
