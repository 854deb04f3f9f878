package dev.lychee.bench.systems;

import dev.lychee.api.TurnRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Baseline: Lucene BM25 (default k1 = 1.2, b = 0.75) over raw turns, analysed with
 * {@link StandardAnalyzer}, one in-memory index per namespace. The question is analysed with the
 * same analyzer and searched as a disjunction of its terms (what the classic query parser builds
 * for plain words).
 */
public final class Bm25System implements EvalSystem {
  private static final String TEXT = "text";
  private static final String SESSION = "session";
  private static final String INDEX = "index";
  private static final String SAID = "said";

  private final Analyzer analyzer = new StandardAnalyzer();
  private final Map<String, IndexSearcher> searchers = new HashMap<>();

  @Override
  public String name() {
    return "bm25";
  }

  @Override
  public void ingest(String namespace, List<EvalSession> sessions) {
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    try (IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
      for (IndexedTurn t : IndexedTurn.of(sessions)) {
        Document doc = new Document();
        doc.add(new TextField(TEXT, t.text(), Field.Store.YES));
        doc.add(new StoredField(SESSION, t.ref().session()));
        doc.add(new StoredField(INDEX, t.ref().index()));
        if (t.said() != null) {
          doc.add(new StoredField(SAID, t.said().toString()));
        }
        writer.addDocument(doc);
      }
      writer.commit();
      IndexSearcher searcher = new IndexSearcher(DirectoryReader.open(dir));
      searcher.setSimilarity(new BM25Similarity());
      searchers.put(namespace, searcher);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public List<EvidenceItem> recall(String namespace, String question, int depth) {
    List<IndexedTurn> hits = search(namespace, question, depth);
    return hits.stream().map(IndexedTurn::toItem).toList();
  }

  /** The best {@code depth} turns for the question, best first (ties in index order). */
  List<IndexedTurn> search(String namespace, String question, int depth) {
    IndexSearcher searcher = searchers.get(namespace);
    if (searcher == null) {
      throw new IllegalStateException("unknown namespace " + namespace);
    }
    BooleanQuery.Builder query = new BooleanQuery.Builder();
    List<String> terms = terms(question);
    if (terms.isEmpty()) {
      return List.of();
    }
    for (String term : terms.subList(0, Math.min(terms.size(), IndexSearcher.getMaxClauseCount()))) {
      query.add(new TermQuery(new Term(TEXT, term)), BooleanClause.Occur.SHOULD);
    }
    try {
      List<IndexedTurn> out = new ArrayList<>();
      for (ScoreDoc sd : searcher.search(query.build(), depth).scoreDocs) {
        Document d = searcher.storedFields().document(sd.doc);
        String said = d.get(SAID);
        out.add(new IndexedTurn(TurnRef.of(d.get(SESSION), d.getField(INDEX).numericValue().intValue()),
            d.get(TEXT), said == null ? null : java.time.LocalDateTime.parse(said)));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private List<String> terms(String text) {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = analyzer.tokenStream(TEXT, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  @Override
  public void forget(String namespace) {
    IndexSearcher s = searchers.remove(namespace);
    if (s != null) {
      try {
        s.getIndexReader().close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  @Override
  public void close() {
    for (String ns : List.copyOf(searchers.keySet())) {
      forget(ns);
    }
    analyzer.close();
  }
}
