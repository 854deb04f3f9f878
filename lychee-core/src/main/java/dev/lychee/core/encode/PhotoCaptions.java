package dev.lychee.core.encode;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds image captions that ingestion wrote into a turn's text, such as
 * {@code [shares photo: a photo of a dog]}, {@code [image: ...]} or {@code (photo: ...)}, and
 * separates them from the spoken text.
 */
final class PhotoCaptions {
  private PhotoCaptions() {}

  private static final Pattern CAPTION = Pattern.compile(
      "[\\[(]\\s*(?:(?:shares?|shared|sends?|sent|posts?|posted)\\s+)?(?:an?\\s+)?(?:photo|image|picture|pic)"
          + "(?:\\s+caption)?\\s*:\\s*([^\\])]+)[\\])]",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern LEADING_KIND = Pattern.compile(
      "^(?:(?:a|an|the)\\s+)?(?:photo|picture|image|pic)\\s+of\\s+", Pattern.CASE_INSENSITIVE);

  /** The text without captions, and the captions found. */
  record Split(String spoken, List<String> captions) {}

  static Split split(String text) {
    List<String> captions = new ArrayList<>();
    Matcher m = CAPTION.matcher(text);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String c = m.group(1).strip();
      if (!c.isEmpty()) {
        captions.add(c);
      }
      m.appendReplacement(sb, " ");
    }
    m.appendTail(sb);
    return new Split(sb.toString().replaceAll("\\s{2,}", " ").strip(), captions);
  }

  /** "a photo of a dog by a wall" → "shared a photo of a dog by a wall"; other captions → "shared a photo showing ...". */
  static String sharedPhrase(String caption) {
    String c = caption.strip().replaceAll("[.!]+$", "");
    Matcher kind = LEADING_KIND.matcher(c);
    if (kind.find()) {
      return "shared a photo of " + c.substring(kind.end());
    }
    return "shared a photo showing " + c;
  }
}
