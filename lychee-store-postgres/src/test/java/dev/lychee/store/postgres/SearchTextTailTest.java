package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.NodeKind;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.testing.StoreWrites;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A node's search text stored as a kept base and an appended tail (migration 9, {@link NodeTable}):
 * whatever its merges append, the text reads back exactly as {@link EvidenceNode#mergedWith} makes
 * it, from the instance that wrote it and from another one.
 */
class SearchTextTailTest {
  /**
   * Random merges into a few nodes, the pieces of text long and short, repeated, periodic, already
   * contained, with U+0000 and the store's escape character (stored escaped, {@link Columns#text})
   * and surrogate pairs that a cut to the last 8,000 characters may split: after every segment the
   * texts read back as the merges in memory made them, from both instances. Some merges must have
   * kept the base and some must have written it whole, or the test proves nothing about the tail.
   */
  @Test
  void everyMergedTextReadsBackAsTheMergeMadeIt() throws Exception {
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(2).build();
    String url = TestPostgres.get().url();
    Random random = new Random(25);
    String[] keys = {"amy", "bo", "cy"};
    EvidenceNode[] expected = new EvidenceNode[keys.length];
    int keptTails = 0;
    int wholeTexts = 0;
    try (RecordStore store = PostgresRecordStore.open(url, config);
        RecordStore other = PostgresRecordStore.open(url, config)) {
      for (int segment = 0; segment < 60; segment++) {
        int k = random.nextInt(keys.length);
        EvidenceNode piece = node(keys[k], segment, piece(random, segment));
        StoreWrites.nodes(store, "ns", List.of(piece));
        expected[k] = asStored(expected[k] == null ? piece : expected[k].mergedWith(piece));
        String tail = tailOf(config.schema(), expected[k].id());
        if (tail.isEmpty()) {
          wholeTexts++;
        } else {
          keptTails++;
        }
        for (int i = 0; i < keys.length; i++) {
          if (expected[i] != null) {
            assertThat(store.nodes("ns", List.of(expected[i].id()))).as("segment %d", segment)
                .containsExactly(expected[i]);
            assertThat(other.nodes("ns", List.of(expected[i].id()))).as("segment %d", segment)
                .containsExactly(expected[i]);
          }
        }
      }
      assertThat(store.nodes("ns", NodeKind.ENTITY)).containsExactlyInAnyOrder(expected);
    }
    assertThat(keptTails).as("merges that kept the stored base").isGreaterThan(10);
    assertThat(wholeTexts).as("writes of the whole text").isGreaterThan(5);
  }

  /** The merged text's piece appended to a text the merge cut is found, even in a periodic text. */
  @Test
  void whatAMergeAppendedIsFoundFromTheOldAndTheMergedText() {
    String old = "ab".repeat(EvidenceNode.MAX_SEARCH_TEXT_CHARS / 2);
    String merged = cut(old + "\nab");
    String a = NodeTable.appended(old, merged);
    assertThat(cut(old + a)).isEqualTo(merged);
    assertThat(a.length()).isLessThanOrEqualTo(3);
    String text = "x".repeat(7000);
    assertThat(NodeTable.appended(text, text + "\nnew")).isEqualTo("\nnew");
    assertThat(NodeTable.appended(text, cut(text + "\n" + "y".repeat(2000)))).isEqualTo("\n" + "y".repeat(2000));
    // a merged text that is no cut of the old one with something appended
    assertThat(NodeTable.appended(text, "z".repeat(EvidenceNode.MAX_SEARCH_TEXT_CHARS))).isNull();
    // the tail is written only while it fits its bound; otherwise the whole text
    assertThat(NodeTable.searchTailAfter("", text, cut(text + "\n" + "y".repeat(5000)))).isNull();
    assertThat(NodeTable.searchTailAfter("\nq", text + "\nq", text + "\nq\nr")).isEqualTo("\nq\nr");
    assertThat(NodeTable.searchTailAfter("\nq", text + "\nq", text + "\nq")).isEqualTo("\nq");
  }

  /**
   * The node as the store holds it: a text whose cut split a surrogate pair starts with the pair's
   * second half alone, which the driver sends as {@code ?} (as it did before migration 9: such a text
   * is written whole, {@link NodeTable#searchTailAfter}).
   */
  private static EvidenceNode asStored(EvidenceNode n) {
    String t = n.searchText();
    if (t.isEmpty() || !Character.isLowSurrogate(t.charAt(0))) {
      return n;
    }
    return new EvidenceNode(n.id(), n.namespace(), n.kind(), n.key(), n.label(), "?" + t.substring(1), n.recordIds(),
        n.sessions(), n.entities(), n.tags(), n.span(), n.turnRanges());
  }

  private static String cut(String s) {
    int max = EvidenceNode.MAX_SEARCH_TEXT_CHARS;
    return s.length() > max ? s.substring(s.length() - max) : s;
  }

  private static String piece(Random random, int segment) {
    return switch (random.nextInt(8)) {
      case 0 -> "short " + segment;
      case 1 -> "emoji \uD83D\uDE00".repeat(1 + random.nextInt(400)) + segment;
      case 2 -> "nul \u0000 and escape \uE000 " + segment + " " + "w".repeat(random.nextInt(1500));
      case 3 -> "ab".repeat(1 + random.nextInt(2000));
      case 4 -> "short " + Math.max(0, segment - 3); // often contained already: no change
      case 5 -> "long piece " + segment + " " + "v".repeat(3000 + random.nextInt(4000));
      default -> "Entity: Amy\nRecord: segment " + segment + " says " + "words ".repeat(1 + random.nextInt(120));
    };
  }

  private static EvidenceNode node(String key, int segment, String text) {
    return new EvidenceNode(null, "ns", NodeKind.ENTITY, key, key, text, List.of("r" + segment), List.of("s1"),
        List.of(key), List.of(), null, List.of());
  }

  private static String tailOf(String schema, String id) throws Exception {
    try (var c = TestPostgres.get().connect(); var st = c.prepareStatement("SELECT search_text_tail FROM " + schema
        + ".nodes WHERE id = ?")) {
      st.setString(1, id);
      try (var rs = st.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }
}
