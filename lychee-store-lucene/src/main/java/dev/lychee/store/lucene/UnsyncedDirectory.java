package dev.lychee.store.lucene;

import java.util.Collection;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;

/**
 * A directory whose commits skip fsync ({@link LuceneStoreConfig#fsync()} false). Lucene still
 * publishes a commit by an atomic rename of its segments file, so a commit stays all-or-nothing
 * and survives the death of the process; only an OS crash or power loss can lose it.
 */
final class UnsyncedDirectory extends FilterDirectory {
  UnsyncedDirectory(Directory in) {
    super(in);
  }

  @Override
  public void sync(Collection<String> names) {
    // deliberately not forced to disk; see class comment
  }

  @Override
  public void syncMetaData() {
    // deliberately not forced to disk; see class comment
  }
}
