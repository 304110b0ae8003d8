/*
 * The one piece of XML the target layer reads out of a gdbserver's documents
 * (memory maps, target descriptions): an attribute's value inside a tag.
 * Not an XML parser: no entities, no namespaces, quotes ' or " only.
 */
#ifndef BENCHRACK_TARGET_XML_ATTR_H
#define BENCHRACK_TARGET_XML_ATTR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Copies the value of name="..." (or name='...') found in the tag [tag, end)
 * after a space, tab or newline into out (cap bytes, NUL-terminated).
 * Returns false when the tag has no such attribute, its value is not closed
 * before end, or the value does not fit.
 */
bool br_xml_attr_get(const char *tag, const char *end, const char *name, char *out, size_t cap);

#endif
