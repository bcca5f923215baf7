/** The sandbox Messages API's shapes, shared by its answer builders (./messages-api.ts, ./messages-criteria.ts). */

/** One line of the notes' text layer and its 1-based page. */
export interface NotesLine {
  page: number;
  text: string;
  value?: string;
}

/** A text block of the answer, with `page_location` citations as the real API sends them. */
export interface SandboxBlock {
  type: 'text';
  text: string;
  citations?: Array<{
    type: 'page_location';
    cited_text: string;
    document_index: number;
    document_title: string | null;
    start_page_number: number;
    end_page_number: number;
  }>;
}
