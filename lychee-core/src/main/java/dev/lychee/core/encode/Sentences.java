package dev.lychee.core.encode;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Splits chat text into sentences: after . ! ? or an ellipsis followed by space, and at line breaks. */
final class Sentences {
  private Sentences() {}

  private static final Pattern BOUNDARY = Pattern.compile(
      "(?<=[.!?…])(?<!\\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|vs|etc|e\\.g|i\\.e|approx|No)\\.)[\"'”’)]*\\s+(?=\\S)|\\R+");

  static List<String> split(String text) {
    List<String> out = new ArrayList<>();
    if (text == null) {
      return out;
    }
    for (String s : BOUNDARY.split(text.strip())) {
      String t = s.strip();
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    return out;
  }
}
