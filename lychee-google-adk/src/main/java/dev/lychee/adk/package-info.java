/** Lychee as the long-term memory service of Google's Agent Development Kit for Java. */
package dev.lychee.adk;
