package dev.lychee.core.organize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class EvidenceOrganizerTest {

  private static final String NS = "ns";
  private static final String S = "s1";
  private static final LocalDate MAY7 = LocalDate.of(2023, 5, 7);

  private final Segment segment = segment(10, 17);
  private final MemoryRecord went = record(MemoryType.EVENT, "Nadia went to the community choir rehearsal on 2023-05-07.",
      List.of("Nadia", "community choir rehearsal", " nadia "), List.of("choir rehearsal", "Choir Rehearsal", "community"),
      new TemporalScope("2023-05-07", "", "", DateRange.day(MAY7), false), 12);
  private final MemoryRecord paints = record(MemoryType.PREFERENCE, "Rafael loves painting sunsets.",
      List.of("Rafael"), List.of("painting"), TemporalScope.NONE, 15, 16);
  private final MemoryRecord monthOnly = record(MemoryType.FACT, "Nadia started counseling classes in May 2023.",
      List.of("Nadia", "!!!"), List.of("counseling"),
      new TemporalScope("May 2023", "", "", DateRange.monthOf(MAY7), false), 10);

  @Test
  void entityNodeFieldByField() {
    Map<String, EvidenceNode> nodes = byKey(new EvidenceOrganizer().organize(segment, List.of(went)));
    EvidenceNode nadia = nodes.get("entity|nadia");
    assertThat(nadia.id()).isEqualTo(EvidenceNode.idFor(NodeKind.ENTITY, "nadia"))
        .startsWith("ev_entity_").hasSize("ev_entity_".length() + 24);
    assertThat(nadia.namespace()).isEqualTo(NS);
    assertThat(nadia.label()).isEqualTo("Nadia");
    assertThat(nadia.searchText()).isEqualTo("Entity: Nadia\nTags: choir rehearsal, community, event\n"
        + "Record: Nadia went to the community choir rehearsal on 2023-05-07.");
    assertThat(nadia.recordIds()).containsExactly(went.id());
    assertThat(nadia.sessions()).containsExactly(S);
    assertThat(nadia.entities()).containsExactly("Nadia");
    assertThat(nadia.tags()).containsExactly("choir rehearsal", "community", "event");
    assertThat(nadia.span()).isEqualTo(DateRange.day(MAY7));
    assertThat(nadia.turnRanges()).containsExactly(new TurnRange(S, 12, 12));
    assertThat(nodes).containsKey("entity|community choir rehearsal");
  }

  @Test
  void tagNodesIncludeTheMemoryType() {
    Map<String, EvidenceNode> nodes = byKey(new EvidenceOrganizer().organize(segment, List.of(went)));
    EvidenceNode tag = nodes.get("tag|choir rehearsal");
    assertThat(tag.label()).isEqualTo("choir rehearsal");
    assertThat(tag.entities()).containsExactly("Nadia", "community choir rehearsal");
    assertThat(tag.tags()).containsExactly("choir rehearsal");
    assertThat(tag.searchText()).isEqualTo("Tag: choir rehearsal\nEntities: Nadia, community choir rehearsal\n"
        + "Record: Nadia went to the community choir rehearsal on 2023-05-07.");
    assertThat(nodes).containsKeys("tag|community", "tag|event");
    assertThat(nodes.keySet().stream().filter(k -> k.startsWith("tag|"))).hasSize(3);
  }

  @Test
  void entityTagNodeForEveryPair() {
    Map<String, EvidenceNode> nodes = byKey(new EvidenceOrganizer().organize(segment, List.of(went)));
    assertThat(nodes.keySet().stream().filter(k -> k.startsWith("entity_tag|"))).hasSize(2 * 3);
    EvidenceNode pair = nodes.get("entity_tag|nadia::choir rehearsal");
    assertThat(pair.id()).isEqualTo(EvidenceNode.idFor(NodeKind.ENTITY_TAG, "nadia::choir rehearsal"));
    assertThat(pair.label()).isEqualTo("Nadia / choir rehearsal");
    assertThat(pair.entities()).containsExactly("Nadia");
    assertThat(pair.tags()).containsExactly("choir rehearsal");
    assertThat(pair.searchText()).isEqualTo("Entity: Nadia\nTag: choir rehearsal\n"
        + "Evidence: Nadia went to the community choir rehearsal on 2023-05-07.");
    assertThat(nodes).containsKey("entity_tag|community choir rehearsal::event");
  }

  @Test
  void temporalDayAndMonthNodesButNoneForMonthOnlyValues() {
    Map<String, EvidenceNode> nodes = byKey(new EvidenceOrganizer().organize(segment, List.of(went, monthOnly)));
    EvidenceNode day = nodes.get("temporal|day:2023-05-07");
    EvidenceNode month = nodes.get("temporal|month:2023-05");
    assertThat(day.label()).isEqualTo("2023-05-07");
    assertThat(day.span()).isEqualTo(DateRange.day(MAY7));
    assertThat(day.searchText()).isEqualTo("Time: 2023-05-07\nEntities: Nadia, community choir rehearsal\n"
        + "Tags: choir rehearsal, community, event\nRecord: Nadia went to the community choir rehearsal on 2023-05-07.");
    assertThat(month.label()).isEqualTo("2023-05");
    assertThat(month.span()).isEqualTo(DateRange.monthOf(MAY7));
    assertThat(month.recordIds()).containsExactly(went.id());
    assertThat(nodes.keySet().stream().filter(k -> k.startsWith("temporal|"))).hasSize(2);
  }

  @Test
  void relativeFieldResolvedToOneDayStillGetsADayNode() {
    MemoryRecord r = record(MemoryType.EVENT, "Pavel lost his job the day before.", List.of("Pavel"), List.of(),
        new TemporalScope("the day before", "", "", DateRange.day(MAY7), false), 11);
    Map<String, EvidenceNode> nodes = byKey(new EvidenceOrganizer().organize(segment, List.of(r)));
    assertThat(nodes).containsKeys("temporal|day:2023-05-07", "temporal|month:2023-05");
  }

  @Test
  void emptyKeysProduceNoNode() {
    List<EvidenceNode> nodes = new EvidenceOrganizer().organize(segment, List.of(monthOnly));
    assertThat(nodes).allSatisfy(n -> assertThat(n.key()).isNotBlank());
    assertThat(nodes).noneMatch(n -> n.label().contains("!!!"));
  }

  @Test
  void nodesSharedByRecordsMergeWithinTheBatch() {
    Map<String, EvidenceNode> nodes = byKey(new EvidenceOrganizer().organize(segment, List.of(went, monthOnly)));
    EvidenceNode nadia = nodes.get("entity|nadia");
    assertThat(nadia.recordIds()).containsExactly(went.id(), monthOnly.id());
    assertThat(nadia.searchText()).contains("Record: Nadia went to the community choir rehearsal on 2023-05-07.\n"
        + "Entity: Nadia\nTags: counseling, fact\nRecord: Nadia started counseling classes in May 2023.");
    assertThat(nadia.tags()).containsExactly("choir rehearsal", "community", "event", "counseling", "fact");
    assertThat(nadia.span()).isEqualTo(DateRange.monthOf(MAY7));
    assertThat(nadia.turnRanges()).containsExactly(new TurnRange(S, 12, 12), new TurnRange(S, 10, 10));
    long ids = new EvidenceOrganizer().organize(segment, List.of(went, monthOnly)).stream()
        .map(EvidenceNode::id).distinct().count();
    assertThat(ids).isEqualTo(nodes.size());
  }

  @Test
  void oneEventFramePerSegmentByDefault() {
    List<EvidenceNode> frames = new EvidenceOrganizer().organize(segment, List.of(went, paints, monthOnly)).stream()
        .filter(n -> n.kind() == NodeKind.EVENT_FRAME).toList();
    assertThat(frames).hasSize(1);
    EvidenceNode f = frames.get(0);
    assertThat(f.key()).isEqualTo("s1:10-17");
    assertThat(f.label()).isEqualTo("s1:10-17");
    assertThat(f.recordIds()).containsExactly(went.id(), paints.id(), monthOnly.id());
    assertThat(f.sessions()).containsExactly(S);
    assertThat(f.tags()).contains("event", "preference", "fact", "painting");
    assertThat(f.entities()).containsExactly("Nadia", "community choir rehearsal", "Rafael");
    assertThat(f.turnRanges()).containsExactly(new TurnRange(S, 10, 17));
    assertThat(f.span()).isEqualTo(DateRange.monthOf(MAY7));
    assertThat(f.searchText()).startsWith("Session: s1\nTurn range: 10-17\nEntities: Nadia, community choir rehearsal, Rafael\n")
        .contains("\nRecords:\n- Nadia went to the community choir rehearsal on 2023-05-07.\n- Rafael loves painting sunsets.");
  }

  @Test
  void eventFrameListsAtMostTwelveRecords() {
    List<MemoryRecord> many = new ArrayList<>();
    IntStream.range(0, 15).forEach(i -> many.add(record(MemoryType.FACT, "Fact number " + i + ".", List.of(),
        List.of(), TemporalScope.NONE, 10 + (i % 8))));
    EvidenceNode f = new EvidenceOrganizer().organize(segment, many).stream()
        .filter(n -> n.kind() == NodeKind.EVENT_FRAME).findFirst().orElseThrow();
    assertThat(f.recordIds()).hasSize(15);
    assertThat(f.searchText().lines().filter(l -> l.startsWith("- "))).hasSize(12);
  }

  @Test
  void turnBucketFramesFollowTheReferenceGrouping() {
    List<EvidenceNode> frames = new EvidenceOrganizer(EventFrameMode.TURN_BUCKETS)
        .organize(segment, List.of(went, paints, monthOnly)).stream()
        .filter(n -> n.kind() == NodeKind.EVENT_FRAME).toList();
    assertThat(frames).extracting(EvidenceNode::key).containsExactly("s1:2:10-10", "s1:3:12-16");
    assertThat(frames.get(1).label()).isEqualTo("s1:12-16");
    assertThat(frames.get(1).recordIds()).containsExactly(went.id(), paints.id());
    assertThat(frames.get(1).turnRanges()).containsExactly(new TurnRange(S, 12, 16));
  }

  @Test
  void noRecordsNoNodes() {
    assertThat(new EvidenceOrganizer().organize(segment, List.of())).isEmpty();
  }

  private static Map<String, EvidenceNode> byKey(List<EvidenceNode> nodes) {
    return nodes.stream().collect(Collectors.toMap(n -> n.kind().wireName() + "|" + n.key(), Function.identity()));
  }

  static Segment segment(int first, int last) {
    List<RawTurn> turns = IntStream.rangeClosed(first, last).mapToObj(i -> new RawTurn(NS, TurnRef.of(S, i),
        Role.USER, i % 2 == 0 ? "Nadia" : "Rafael", "turn " + i, LocalDateTime.of(2023, 5, 8, 13, 56))).toList();
    return new Segment(NS, S, turns, turns.size(), 100, CloseReason.SESSION_FLUSH, Double.NaN, Double.NaN);
  }

  private static MemoryRecord record(MemoryType type, String text, List<String> entities, List<String> tags,
      TemporalScope temporal, int... turns) {
    List<TurnRef> ev = IntStream.of(turns).mapToObj(i -> TurnRef.of(S, i)).toList();
    return new MemoryRecord(null, NS, type, text, entities, tags, temporal, ev, S, S + ":10-17", SourceRole.USER,
        LocalDateTime.of(2023, 5, 8, 13, 56));
  }
}
