package dev.lychee.store.lucene;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.SegmentState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.BytesRef;

/**
 * The write-ahead log entry of a segment's encoding ({@code commitEncoding}): the segment, and each
 * record and node document as written, that is its merged value and the sequence number it took.
 * Replaying it marks the segment encoded and writes the same documents again, which changes nothing
 * when a commit holds them already (each is replaced by its unique key), so it is idempotent as the
 * log requires; the values are not merged again, since they were merged when they were written.
 *
 * <p>The entry is binary ({@link #toBytes}): the namespace, the segment id, then per document its
 * kind, sequence number and the UTF-8 bytes of its JSON, copied as they are from the document's
 * {@link StoreFields#JSON_VALUES} doc value. Why (round twenty-four, measurements.md §6): the JSON
 * entry before built a tree, escaped every document's JSON into a string and copied that string
 * into bytes, about 630 of 17,571 samples of an ingest at twenty copies, where the nodes' JSON
 * grows with the namespace. Entries of that earlier form ({@link #parseJson}) are still replayed.
 *
 * @param namespace the segment's namespace
 * @param segmentId the segment marked encoded
 * @param docs the record and node documents, in the order they were written
 */
record LoggedEncoding(String namespace, String segmentId, List<Doc> docs) {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  /** A document's kind in the binary entry. */
  private static final byte RECORD = 'r';
  private static final byte NODE = 'n';

  /**
   * One document of the entry.
   *
   * @param kind {@link StoreFields#KIND_RECORD} or {@link StoreFields#KIND_NODE}
   * @param seq the sequence number the document was written with
   * @param json the UTF-8 bytes of the value's JSON as stored ({@link JsonCodec})
   */
  record Doc(String kind, long seq, BytesRef json) {
    /** The value's JSON as a string, for decoding. */
    String jsonText() {
      return json.utf8ToString();
    }
  }

  /** The entry of documents just written by {@link JsonDocs#addPrepared} (their sequence numbers set). */
  static LoggedEncoding of(String namespace, String segmentId, List<JsonDocs.PreparedDoc> written) {
    List<Doc> docs = new ArrayList<>(written.size());
    for (JsonDocs.PreparedDoc d : written) {
      Document doc = d.document();
      // the bytes the document holds already: no second encoding of its JSON, no escaping
      docs.add(new Doc(doc.get(StoreFields.DOC), doc.getField(StoreFields.SEQ).numericValue().longValue(),
          doc.getBinaryValue(StoreFields.JSON_VALUES)));
    }
    return new LoggedEncoding(namespace, segmentId, List.copyOf(docs));
  }

  /**
   * The entry as bytes, after {@code prefix} (the log's letter for the write): every length a
   * big-endian int, sized exactly, one copy of each document's JSON bytes.
   */
  byte[] toBytes(byte prefix) {
    byte[] ns = namespace.getBytes(StandardCharsets.UTF_8);
    byte[] segment = segmentId.getBytes(StandardCharsets.UTF_8);
    long size = 1 + 4 + ns.length + 4 + segment.length + 4;
    for (Doc d : docs) {
      size += 1 + 8 + 4 + d.json().length;
    }
    if (size > Integer.MAX_VALUE - 64) {
      throw new IllegalStateException("an encoding's log entry of " + size + " bytes is too large");
    }
    ByteBuffer out = ByteBuffer.allocate((int) size);
    out.put(prefix);
    out.putInt(ns.length).put(ns).putInt(segment.length).put(segment).putInt(docs.size());
    for (Doc d : docs) {
      out.put(switch (d.kind()) {
        case StoreFields.KIND_RECORD -> RECORD;
        case StoreFields.KIND_NODE -> NODE;
        default -> throw new IllegalStateException("unknown document kind '" + d.kind() + "' in an encoding");
      });
      out.putLong(d.seq()).putInt(d.json().length).put(d.json().bytes, d.json().offset, d.json().length);
    }
    return out.array();
  }

  /** Reads an entry {@link #toBytes} wrote, from {@code offset} (after its letter). */
  static LoggedEncoding parse(byte[] entry, int offset) throws IOException {
    try {
      ByteBuffer in = ByteBuffer.wrap(entry, offset, entry.length - offset);
      String namespace = string(in);
      String segmentId = string(in);
      int n = in.getInt();
      if (n < 0) {
        throw new IOException("corrupt write-ahead log entry of an encoding: " + n + " documents");
      }
      List<Doc> docs = new ArrayList<>(Math.min(n, 1024));
      for (int i = 0; i < n; i++) {
        String kind = switch (in.get()) {
          case RECORD -> StoreFields.KIND_RECORD;
          case NODE -> StoreFields.KIND_NODE;
          default -> throw new IOException("corrupt write-ahead log entry of an encoding: unknown document kind");
        };
        long seq = in.getLong();
        docs.add(new Doc(kind, seq, new BytesRef(bytes(in))));
      }
      return new LoggedEncoding(namespace, segmentId, List.copyOf(docs));
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      throw new IOException("corrupt write-ahead log entry of an encoding", e);
    }
  }

  private static String string(ByteBuffer in) throws IOException {
    return new String(bytes(in), StandardCharsets.UTF_8);
  }

  private static byte[] bytes(ByteBuffer in) throws IOException {
    int length = in.getInt();
    if (length < 0 || length > in.remaining()) {
      throw new IOException("corrupt write-ahead log entry of an encoding: a length of " + length);
    }
    byte[] b = new byte[length];
    in.get(b);
    return b;
  }

  /** Reads an entry of the JSON form that stores before round twenty-four logged. */
  static LoggedEncoding parseJson(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("corrupt write-ahead log entry of an encoding", e);
    }
    List<Doc> docs = new ArrayList<>();
    for (JsonNode d : root.get("docs")) {
      docs.add(new Doc(d.get("kind").asText(), d.get("seq").asLong(), new BytesRef(d.get("json").asText())));
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
          MemoryRecord r = JsonCodec.record(d.jsonText());
          writer.updateDocument(StoreFields.uid(d.kind(), namespace, r.id()), StoreDocuments.record(r, d.seq()));
        }
        case StoreFields.KIND_NODE -> {
          EvidenceNode n = JsonCodec.node(d.jsonText());
          writer.updateDocument(StoreFields.uid(d.kind(), namespace, n.id()), StoreDocuments.node(n, d.seq()));
        }
        default -> throw new IOException("unknown document kind '" + d.kind() + "' in an encoding's log entry");
      }
    }
  }
}
