// The report page's one script, inline and allowed by its hash (report-csp.ts): sorting the
// incidents' table by any column, with no framework. It reads nothing but the table's own cells
// (a number column sorts by the cell's `data-v`, else its digits; a text column by its text,
// numbers inside it in order), writes nothing but rows' order and `aria-sort`, and marks the table
// `data-sortable="ready"` once it listens, for people's tools and the browser test to wait on.

/** The report page's JavaScript. */
export const REPORT_SCRIPT = `
(function () {
  "use strict";
  var table = document.getElementById("incidents");
  if (!table || !table.tHead) return;
  var body = table.tBodies[0];
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
  function sortBy(head, direction) {
    var column = head.cellIndex;
    var numeric = head.getAttribute("data-type") === "num";
    var sign = direction === "ascending" ? 1 : -1;
    var rows = Array.prototype.map.call(body.rows, function (row, index) {
      var cell = row.cells[column];
      var value = numeric ? Number(cell.getAttribute("data-v") || cell.textContent) : cell.textContent;
      return { row: row, value: numeric && isNaN(value) ? 0 : value, index: index };
    });
    rows.sort(function (a, b) {
      var order = numeric ? a.value - b.value : collator.compare(a.value, b.value);
      return order * sign || a.index - b.index;
    });
    var fragment = document.createDocumentFragment();
    for (var i = 0; i < rows.length; i++) fragment.appendChild(rows[i].row);
    body.appendChild(fragment);
    heads.forEach(function (h) {
      if (h === head) h.setAttribute("aria-sort", direction);
      else h.removeAttribute("aria-sort");
    });
  }
  table.tHead.addEventListener("click", function (event) {
    var head = event.target.closest("th");
    if (!head) return;
    sortBy(head, head.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending");
  });
  table.setAttribute("data-sortable", "ready");
})();
`;
