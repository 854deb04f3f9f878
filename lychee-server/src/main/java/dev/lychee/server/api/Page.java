package dev.lychee.server.api;

import java.util.List;

/**
 * One page of a listing.
 *
 * @param items the items of this page
 * @param offset where this page starts
 * @param limit the page size asked for
 * @param total how many items the listing holds
 * @param nextOffset the offset of the next page, or null on the last page
 */
public record Page<T>(List<T> items, int offset, int limit, int total, Integer nextOffset) {

  /** The page {@code [offset, offset+limit)} of {@code all}. */
  public static <T> Page<T> of(List<T> all, int offset, int limit) {
    int from = Math.min(offset, all.size());
    int to = Math.min(all.size(), from + limit);
    return new Page<>(List.copyOf(all.subList(from, to)), offset, limit, all.size(), to < all.size() ? to : null);
  }
}
