export async function onSubmit(form: HTMLFormElement): Promise<Response> {
  return fetch('/chat/', { method: 'POST', body: new FormData(form) });
}
