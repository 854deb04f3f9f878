package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.RawTurn;
import dev.lychee.api.SegmentState;
import dev.lychee.api.StoredSegment;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log entries of an encoding and of its vectors (round twenty-four): an encoding's entry holds
 * one copy of each document's JSON bytes, as the document holds them (no escaping, no second
 * encoding), and reads back to the same documents; entries in the JSON form of earlier stores are
 * still replayed; the vector entry's bytes are what they were before its encoder was rewritten.
 */
class LoggedEncodingTest {
  @TempDir Path dir;

  private static final String NS = "log";
  private static final String S = "s";
  private static final byte LETTER = 'e';

  /** A record and a node whose JSON has quotes, backslashes and characters outside ASCII. */
  private static List<JsonDocs.PreparedDoc> written() {
    MemoryRecord r = Fixtures.record(NS, S, "Nadia said \"ciao\" at the café \\ 7 €", 0, 2);
    EvidenceNode n = Fixtures.entityNode(NS, "nadia \"n\" ü", S, r.id());
    return List.of(
        new JsonDocs.PreparedDoc(StoreFields.uid(StoreFields.KIND_RECORD, NS, r.id()), StoreDocuments.record(r, 41), true),
        new JsonDocs.PreparedDoc(StoreFields.uid(StoreFields.KIND_NODE, NS, n.id()), StoreDocuments.node(n, 42), false));
  }

  @Test
  void theEntryHoldsOneCopyOfEachDocumentsJsonBytesAndNothingElseOfThem() {
    List<JsonDocs.PreparedDoc> docs = written();
    byte[] entry = LoggedEncoding.of(NS, "s:0-3", docs).toBytes(LETTER);
    assertThat(entry[0]).isEqualTo(LETTER);
    long expected = 1 + 4 + NS.length() + 4 + "s:0-3".length() + 4;
    for (JsonDocs.PreparedDoc d : docs) {
      BytesRef json = d.document().getBinaryValue(StoreFields.JSON_VALUES);
      byte[] bytes = Arrays.copyOfRange(json.bytes, json.offset, json.offset + json.length);
      // verbatim: the JSON form before escaped each quote and backslash of it
      assertThat(indexOf(entry, bytes)).as("the document's JSON bytes, unescaped").isPositive();
      expected += 1 + 8 + 4 + json.length;
    }
    // sized exactly: a kind byte, a sequence number and a length per document besides its bytes
    assertThat(entry.length).isEqualTo(expected);
  }

  @Test
  void aBinaryEntryReadsBackToTheSameDocuments() throws IOException {
    List<JsonDocs.PreparedDoc> docs = written();
    LoggedEncoding logged = LoggedEncoding.of(NS, "s:0-3", docs);
    LoggedEncoding read = LoggedEncoding.parse(logged.toBytes(LETTER), 1);
    assertThat(read).isEqualTo(logged);
    assertThat(read.docs()).extracting(LoggedEncoding.Doc::kind)
        .containsExactly(StoreFields.KIND_RECORD, StoreFields.KIND_NODE);
    assertThat(read.docs()).extracting(LoggedEncoding.Doc::seq).containsExactly(41L, 42L);
    Document record = docs.get(0).document();
    assertThat(read.docs().get(0).jsonText()).isEqualTo(record.get(StoreFields.JSON));
    assertThat(JsonCodec.record(read.docs().get(0).jsonText())).isEqualTo(JsonCodec.record(record.get(StoreFields.JSON)));
  }

  @Test
  void aCutOrCorruptBinaryEntryIsRefusedNotReadAsGarbage() {
    byte[] entry = LoggedEncoding.of(NS, "s:0-3", written()).toBytes(LETTER);
    assertThatThrownBy(() -> LoggedEncoding.parse(Arrays.copyOf(entry, entry.length - 3), 1))
        .isInstanceOf(IOException.class);
    byte[] badKind = entry.clone();
    badKind[1 + 4 + NS.length() + 4 + "s:0-3".length() + 4] = 'x';
    assertThatThrownBy(() -> LoggedEncoding.parse(badKind, 1)).isInstanceOf(IOException.class);
  }

  @Test
  void anEncodingLoggedInTheJsonFormOfEarlierStoresIsStillReplayed() throws IOException {
    LuceneStoreConfig logged = LuceneStoreConfig.builder().deferredCommit(Duration.ofHours(1)).build();
    List<RawTurn> turns = Fixtures.turns(NS, S, 0, 4);
    MemoryRecord r = Fixtures.record(NS, S, "Nadia said \"ciao\" at the café", 0);
    EvidenceNode n = Fixtures.entityNode(NS, "nadia", S, r.id());
    String segment = Fixtures.segment(turns).id();
    try (LuceneRecordStore store = new LuceneRecordStore(dir, logged)) {
      store.appendTurns(NS, S, turns);
      store.putSegment(Fixtures.segment(turns), SegmentState.PENDING);
    }
    // the entry as LoggedEncoding#toJson wrote it before round twenty-four, after every commit
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode root = mapper.createObjectNode().put("ns", NS).put("segment", segment);
    root.putArray("docs").addObject().put("kind", StoreFields.KIND_RECORD).put("seq", 500).put("json", JsonCodec.record(r));
    root.withArray("docs").addObject().put("kind", StoreFields.KIND_NODE).put("seq", 501).put("json", JsonCodec.node(n));
    try (WriteAheadLog log = new WriteAheadLog(dir, true)) {
      log.read();
      log.append(1_000, ("E" + mapper.writeValueAsString(root)).getBytes(StandardCharsets.UTF_8));
    }
    try (LuceneRecordStore store = new LuceneRecordStore(dir, logged)) {
      assertThat(store.segments(NS)).extracting(StoredSegment::state).containsExactly(SegmentState.ENCODED);
      assertThat(store.records(NS)).containsExactly(r);
      assertThat(store.nodes(NS, List.of(n.id()))).containsExactly(n);
    }
  }

  @Test
  void theVectorEntryHasTheBytesOfOneWriteFloatPerComponent() throws IOException {
    float[] a = {0.6f, -0.8f, 0f};
    float[] b = {Float.MIN_VALUE, -0f, 1f};
    float[] c = new float[384];
    Arrays.fill(c, 0.05103104f);
    LoggedVectors vectors = new LoggedVectors("ns é", List.of(
        new LoggedVectors.Kind("records", List.of(Map.entry("r1", a), Map.entry("r2 ü", b))),
        new LoggedVectors.Kind("nodes:entity", List.of(Map.entry("n1", c)))));
    ByteArrayOutputStream reference = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(reference)) {
      out.writeUTF("ns é");
      out.writeInt(2);
      out.writeUTF("records");
      out.writeInt(2);
      for (Map.Entry<String, float[]> e : List.of(Map.entry("r1", a), Map.entry("r2 ü", b))) {
        out.writeUTF(e.getKey());
        out.writeInt(e.getValue().length);
        for (float f : e.getValue()) {
          out.writeFloat(f);
        }
      }
      out.writeUTF("nodes:entity");
      out.writeInt(1);
      out.writeUTF("n1");
      out.writeInt(c.length);
      for (float f : c) {
        out.writeFloat(f);
      }
    }
    byte[] bytes = vectors.toBytes();
    // entries logged before the change replay as before, and new ones replay on an older store
    assertThat(bytes).isEqualTo(reference.toByteArray());
    LoggedVectors read = LoggedVectors.parse(bytes);
    assertThat(read.namespace()).isEqualTo("ns é");
    assertThat(read.kinds().get(0).unit().get(1).getValue()).isEqualTo(b);
    assertThat(read.kinds().get(1).unit().get(0).getValue()).isEqualTo(c);
  }

  private static int indexOf(byte[] in, byte[] part) {
    outer:
    for (int i = 0; i + part.length <= in.length; i++) {
      for (int j = 0; j < part.length; j++) {
        if (in[i + j] != part[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
