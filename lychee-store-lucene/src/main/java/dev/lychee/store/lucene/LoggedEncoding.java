package dev.lychee.store.lucene;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.SegmentState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;

/**
 * The write-ahead log entry of a segment's encoding ({@code commitEncoding}): the segment, and each
 * record and node document as written, that is its merged value and the sequence number it took.
 * Replaying it marks the segment encoded and writes the same documents again, which changes nothing
 * when a commit holds them already (each is replaced by its unique key), so it is idempotent as the
 * log requires; the values are not merged again, since they were merged when they were written.
 *
 * @param namespace the segment's namespace
 * @param segmentId the segment marked encoded
 * @param docs the record and node documents, in the order they were written
 */
record LoggedEncoding(String namespace, String segmentId, List<Doc> docs) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * One document of the entry.
   *
   * @param kind {@link StoreFields#KIND_RECORD} or {@link StoreFields#KIND_NODE}
   * @param seq the sequence number the document was written with
   * @param json the value's JSON as stored ({@link JsonCodec})
   */
  record Doc(String kind, long seq, String json) {}

  /** The entry of documents just written by {@link JsonDocs#writePrepared} (their sequence numbers set). */
  static LoggedEncoding of(String namespace, String segmentId, List<JsonDocs.PreparedDoc> written) {
    List<Doc> docs = new ArrayList<>(written.size());
    for (JsonDocs.PreparedDoc d : written) {
      Document doc = d.document();
      docs.add(new Doc(doc.get(StoreFields.DOC), doc.getField(StoreFields.SEQ).numericValue().longValue(),
          doc.get(StoreFields.JSON)));
    }
    return new LoggedEncoding(namespace, segmentId, List.copyOf(docs));
  }

  String toJson() {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("ns", namespace);
    root.put("segment", segmentId);
    ArrayNode array = root.putArray("docs");
    for (Doc d : docs) {
      array.addObject().put("kind", d.kind()).put("seq", d.seq()).put("json", d.json());
    }
    try {
      return MAPPER.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise an encoding's log entry", e);
    }
  }

  static LoggedEncoding parse(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("corrupt write-ahead log entry of an encoding", e);
    }
    List<Doc> docs = new ArrayList<>();
    for (JsonNode d : root.get("docs")) {
      docs.add(new Doc(d.get("kind").asText(), d.get("seq").asLong(), d.get("json").asText()));
    }
    return new LoggedEncoding(root.get("ns").asText(), root.get("segment").asText(), List.copyOf(docs));
  }

  /**
   * Redoes the encoding inside a replay: the state change, then every document with its own
   * sequence number (the sequence moves past them, so later values still come after).
   */
  void replay(IndexWriter writer, IndexSearcher searcher, StoreSequence seq) throws IOException {
    SegmentDocs.setState(writer, searcher, namespace, segmentId, SegmentState.ENCODED, null);
    for (Doc d : docs) {
      seq.advancePast(d.seq());
      switch (d.kind()) {
        case StoreFields.KIND_RECORD -> {
          MemoryRecord r = JsonCodec.record(d.json());
          writer.updateDocument(StoreFields.uid(d.kind(), namespace, r.id()), StoreDocuments.record(r, d.seq()));
        }
        case StoreFields.KIND_NODE -> {
          EvidenceNode n = JsonCodec.node(d.json());
          writer.updateDocument(StoreFields.uid(d.kind(), namespace, n.id()), StoreDocuments.node(n, d.seq()));
        }
        default -> throw new IOException("unknown document kind '" + d.kind() + "' in an encoding's log entry");
      }
    }
  }
}
