/** Where the generated module is written. */
export declare const outputPath: string
/** The source text of src/flows/webauthn/client-script.generated.ts, from the current sources. */
export declare function renderClientScriptModule(): string
