#pragma once
// CSV cells as every export writes them (comma-separated, '.' decimals, full precision):
// the record exports of the dashboard (ui/common/CsvExport) and the library's export.
#include <string>
#include <vector>

namespace jb {

std::string csvNumber(double v);            // %.17g: reads back as the same double
std::string csvCell(const std::string& s);  // quoted (RFC 4180) where it holds , " or a line break
std::string csvRow(const std::vector<std::string>& cells);  // joined with commas, then '\n'

}  // namespace jb
