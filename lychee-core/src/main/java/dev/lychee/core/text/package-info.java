/** Word-level text handling shared by the planner, the read stages and the extractive answerer. */
package dev.lychee.core.text;
