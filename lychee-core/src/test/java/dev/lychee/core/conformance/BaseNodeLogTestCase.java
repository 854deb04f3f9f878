package dev.lychee.core.conformance;

import static dev.lychee.core.conformance.StoreFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.LinkedRecords;
import dev.lychee.core.testing.StoreWrites;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of {@link dev.lychee.api.spi.NodeLog}: evidence nodes: merges, order by key, capped search text.
 * {@link BaseRecordStoreTestCase} runs it against every backend; random data comes from fixed
 * seeds so that a failure reproduces.
 */
public abstract class BaseNodeLogTestCase extends StoreCase {

  @Test
  void nodesRoundTripMergeAndOrderByKey() {
    DateRange may = DateRange.day(LocalDate.of(2023, 5, 7));
    EvidenceNode zed = node("ns", NodeKind.ENTITY, "zed", "Entity: Zed", List.of("r1"), "s1", null);
    EvidenceNode amy = node("ns", NodeKind.ENTITY, "amy", "Entity: Amy", List.of("r2"), "s1", may);
    EvidenceNode tag = node("ns", NodeKind.TAG, "music", "Tag: music", List.of("r1", "r2"), "s1", null);
    EvidenceNode dayNode = node("ns", NodeKind.TEMPORAL, "day:2023-05-07", "Time: 2023-05-07", List.of("r2"), "s1", may);
    StoreWrites.nodes(store, "ns", List.of(zed, amy, tag, dayNode));
    EvidenceNode amyLater = new EvidenceNode(null, "ns", NodeKind.ENTITY, "amy", "", "Entity: Amy\nRecord: new",
        List.of("r3", "r2"), List.of("s2"), List.of("Amy"), List.of("travel"),
        DateRange.day(LocalDate.of(2023, 8, 1)), List.of(new TurnRange("s2", 4, 9)));
    StoreWrites.nodes(store, "ns", List.of(amyLater));
    reopenIfSupported();
    EvidenceNode merged = amy.mergedWith(amyLater);
    assertThat(storedNode("ns", amy.id())).contains(merged);
    assertThat(merged.recordIds()).containsExactly("r2", "r3");
    assertThat(merged.span()).isEqualTo(new DateRange(LocalDate.of(2023, 5, 7), LocalDate.of(2023, 8, 1)));
    assertThat(store.nodes("ns", NodeKind.ENTITY)).containsExactly(merged, zed);
    assertThat(store.nodes("ns", NodeKind.TAG)).containsExactly(tag);
    assertThat(store.nodes("ns", NodeKind.EVENT_FRAME)).isEmpty();
    assertThat(store.nodes("ns", List.of(dayNode.id(), "nope", zed.id()))).containsExactly(dayNode, zed);
    assertThat(storedNode("other", amy.id())).isEmpty();
  }

  @Test
  void nodeRecordIdsAreTheNodesRecordIdsInTheOrderAsked() {
    EvidenceNode zed = node("ns", NodeKind.ENTITY, "zed", "Entity: Zed", List.of("r1"), "s1", null);
    EvidenceNode tag = node("ns", NodeKind.TAG, "music", "Tag: music", List.of("r3", "r1", "r2"), "s1", null);
    StoreWrites.nodes(store, "ns", List.of(zed, tag));
    StoreWrites.nodes(store, "ns", List.of(node("ns", NodeKind.TAG, "music", "Tag: music", List.of("r9", "r1"), "s2",
        DateRange.day(LocalDate.of(2023, 5, 7)))));
    StoreWrites.nodes(store, "other", List.of(node("other", NodeKind.ENTITY, "amy", "Entity: Amy", List.of("r5"), "s1",
        null)));
    reopenIfSupported();
    List<String> asked = List.of(tag.id(), "nope", zed.id(), tag.id(), node("other", NodeKind.ENTITY, "amy", "Entity: Amy",
        List.of("r5"), "s1", null).id());
    Map<String, List<String>> linked = store.nodeRecordIds("ns", asked);
    // the same as reading the nodes: merged record ids, request order, unknown and other namespaces' ids left out
    Map<String, List<String>> fromNodes = new LinkedHashMap<>();
    store.nodes("ns", asked).forEach(n -> fromNodes.put(n.id(), n.recordIds()));
    assertThat(linked).containsExactlyEntriesOf(fromNodes);
    assertThat(List.copyOf(linked.keySet())).containsExactly(tag.id(), zed.id());
    assertThat(linked.get(tag.id())).containsExactly("r3", "r1", "r2", "r9");
    assertThat(store.nodeRecordIds("ns", List.of())).isEmpty();
    assertThat(store.nodeRecordIds("empty", asked)).isEmpty();
  }

  @Test
  void linkedRecordsAreTheNodesFirstRecordIdsWithTheirStoredRecords() {
    MemoryRecord r1 = linkedRecord("ns", "r1", "Amy plays the guitar");
    MemoryRecord r2 = linkedRecord("ns", "r2", "Amy moved to Paris");
    MemoryRecord r3 = linkedRecord("ns", "r3", "Zed sings in a choir");
    MemoryRecord r4 = linkedRecord("other", "r4", "Bo runs on Sundays");
    // ids that JSON has to escape
    MemoryRecord quoted = linkedRecord("ns", "say \"hi\", \"yo\"", "Amy waves");
    MemoryRecord slashed = linkedRecord("ns", "back\\slash", "Amy writes code");
    StoreWrites.records(store, "ns", List.of(r1, r2, r3, quoted, slashed));
    StoreWrites.records(store, "other", List.of(r4));
    // r4 is stored only in another namespace and r9 nowhere: both are links without a record here
    EvidenceNode tag = node("ns", NodeKind.TAG, "music", "Tag: music", List.of("r3", "r1", "r4"), "s1", null);
    EvidenceNode zed = node("ns", NodeKind.ENTITY, "zed", "Entity: Zed", List.of("r2"), "s1", null);
    EvidenceNode otherNode = node("other", NodeKind.ENTITY, "bo", "Entity: Bo", List.of("r4"), "s1", null);
    EvidenceNode odd = node("ns", NodeKind.TAG, "odd", "Tag: odd", List.of(quoted.id(), "r1", slashed.id()), "s1", null);
    StoreWrites.nodes(store, "ns", List.of(tag, zed, odd));
    StoreWrites.nodes(store, "ns", List.of(node("ns", NodeKind.TAG, "music", "Tag: music", List.of("r2", "r9"), "s2",
        null)));
    StoreWrites.nodes(store, "other", List.of(otherNode));
    reopenIfSupported();
    List<String> asked = List.of(tag.id(), "nope", zed.id(), tag.id(), otherNode.id(), odd.id());

    LinkedRecords three = store.linkedRecords("ns", asked, 3);
    assertThat(three.recordIds()).containsExactly(entry(tag.id(), List.of("r3", "r1", "r4")),
        entry(zed.id(), List.of("r2")), entry(odd.id(), List.of(quoted.id(), "r1", slashed.id())));
    assertThat(three.records()).containsExactly(r3, r1, r2, quoted, slashed);
    LinkedRecords all = store.linkedRecords("ns", asked, 100);
    assertThat(all.recordIds().get(tag.id())).containsExactly("r3", "r1", "r4", "r2", "r9");
    assertThat(all.records()).containsExactly(r3, r1, r2, quoted, slashed);
    LinkedRecords none = store.linkedRecords("ns", asked, 0);
    assertThat(none.recordIds()).containsExactly(entry(tag.id(), List.of()), entry(zed.id(), List.of()),
        entry(odd.id(), List.of()));
    assertThat(none.records()).isEmpty();
    // every cut is what reading the links and then the records gives, which a store may not change
    for (int perNode = 0; perNode <= 6; perNode++) {
      Map<String, List<String>> links = new LinkedHashMap<>();
      Set<String> ids = new LinkedHashSet<>();
      for (Map.Entry<String, List<String>> e : store.nodeRecordIds("ns", asked).entrySet()) {
        List<String> first = e.getValue().subList(0, Math.min(perNode, e.getValue().size()));
        links.put(e.getKey(), first);
        ids.addAll(first);
      }
      LinkedRecords read = store.linkedRecords("ns", asked, perNode);
      assertThat(read.recordIds()).as("links, %d per node", perNode).containsExactlyEntriesOf(links);
      assertThat(read.records()).as("records, %d per node", perNode).containsExactlyElementsOf(store.records("ns", ids));
    }
    assertThat(store.linkedRecords("other", asked, 3).records()).containsExactly(r4);
    assertThat(store.linkedRecords("ns", List.of(), 3)).isEqualTo(LinkedRecords.NONE);
    assertThat(store.linkedRecords("empty", asked, 3)).isEqualTo(LinkedRecords.NONE);
    assertThatThrownBy(() -> store.linkedRecords("ns", asked, -1)).isInstanceOf(IllegalArgumentException.class);
  }

  private static MemoryRecord linkedRecord(String ns, String id, String text) {
    return new MemoryRecord(id, ns, MemoryType.FACT, text, List.of(), List.of(), TemporalScope.NONE,
        List.of(TurnRef.of("s1", 0)), "s1", "s1:0-9", SourceRole.USER, StoreFixtures.T0);
  }

  @Test
  void oneWriteMergesStoredIdsAndRepeatsOfAnIdInTheOrderGiven() {
    EvidenceNode stored = node("ns", NodeKind.ENTITY, "amy", "Entity: Amy", List.of("r1"), "s1", null);
    StoreWrites.nodes(store, "ns", List.of(stored));
    EvidenceNode again = node("ns", NodeKind.ENTITY, "amy", "Entity: Amy\nRecord: two", List.of("r2"), "s2", null);
    EvidenceNode fresh = node("ns", NodeKind.TAG, "music", "Tag: music", List.of("r3"), "s1", null);
    EvidenceNode freshAgain = node("ns", NodeKind.TAG, "music", "Tag: music\nRecord: four", List.of("r4"), "s2",
        DateRange.day(LocalDate.of(2023, 5, 7)));
    StoreWrites.nodes(store, "ns", List.of(again, fresh, freshAgain, stored));
    reopenIfSupported();
    assertThat(storedNode("ns", stored.id())).contains(stored.mergedWith(again).mergedWith(stored));
    assertThat(storedNode("ns", fresh.id())).contains(fresh.mergedWith(freshAgain));
    assertThat(store.nodes("ns", NodeKind.TAG)).hasSize(1);
  }

  @Test
  void nodeSearchTextIsCappedAfterMerges() {
    EvidenceNode n = node("ns", NodeKind.TAG, "long", "x".repeat(5000), List.of("r1"), "s", null);
    StoreWrites.nodes(store, "ns", List.of(n));
    EvidenceNode m = node("ns", NodeKind.TAG, "long", "y".repeat(5000), List.of("r2"), "s", null);
    StoreWrites.nodes(store, "ns", List.of(m));
    String text = storedNode("ns", n.id()).orElseThrow().searchText();
    assertThat(text).hasSize(EvidenceNode.MAX_SEARCH_TEXT_CHARS).endsWith("y".repeat(5000));
  }
}
